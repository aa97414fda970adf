import Foundation
import LaunchAdCore

/// Hands a round's jobs to concurrent senders: the jobs of one lane (one run's beacons, one
/// collector's records) strictly a wave at a time (a wave: one event's beacons, which may go
/// together), so a server sees one play's impression before its start before its quartiles;
/// different lanes (other runs' plays) go side by side.
final class JobSchedule: @unchecked Sendable {  // all state guarded by `cond`
    private let cond = NSCondition()
    /// Lane → its waves in order → job indices.
    private var lanes: [[[Int]]] = []
    private var wave: [Int] = []
    private var claimed: [Int] = []
    private var unfinished: [Int] = []
    private var verdicts: [DeliveryVerdict]
    private var remaining: Int

    init(lane: [String], wave waveKey: [String]) {
        verdicts = Array(repeating: .retry, count: lane.count)
        remaining = lane.count
        var laneIndex: [String: Int] = [:]
        for j in lane.indices {
            let l =
                laneIndex[lane[j]]
                ?? {
                    laneIndex[lane[j]] = lanes.count; lanes.append([]); return lanes.count - 1
                }()
            if let last = lanes[l].last?.last, waveKey[last] == waveKey[j] {
                lanes[l][lanes[l].count - 1].append(j)
            } else {
                lanes[l].append([j])
            }
        }
        wave = Array(repeating: 0, count: lanes.count)
        claimed = Array(repeating: 0, count: lanes.count)
        unfinished = lanes.map { $0[0].count }
    }

    /// The next job a sender may start, waiting while every ready lane is busy; nil when all are done.
    func claim() -> (job: Int, lane: Int)? {
        cond.lock(); defer { cond.unlock() }
        while remaining > 0 {
            for l in lanes.indices where wave[l] < lanes[l].count && claimed[l] < lanes[l][wave[l]].count {
                claimed[l] += 1
                return (lanes[l][wave[l]][claimed[l] - 1], l)
            }
            cond.wait()
        }
        return nil
    }

    func finish(_ job: Int, lane l: Int, _ verdict: DeliveryVerdict) {
        cond.lock(); defer { cond.unlock() }
        verdicts[job] = verdict
        remaining -= 1
        unfinished[l] -= 1
        if unfinished[l] == 0 {
            wave[l] += 1
            claimed[l] = 0
            unfinished[l] = wave[l] < lanes[l].count ? lanes[l][wave[l]].count : 0
        }
        cond.broadcast()
    }

    var results: [DeliveryVerdict] { cond.lock(); defer { cond.unlock() }; return verdicts }
}
