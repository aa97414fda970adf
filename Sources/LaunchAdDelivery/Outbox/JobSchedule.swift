import Foundation
import LaunchAdCore

/// Hands a round's jobs to concurrent senders: the jobs of one lane (one run's beacons, one
/// collector's records) strictly a wave at a time (a wave: one event's beacons, which may go
/// together), so a server sees one play's impression before its start before its quartiles;
/// different lanes (other runs' plays) go side by side.
final class JobSchedule: Sendable {
    private struct State {
        /// Lane → its waves in order → job indices.
        var lanes: [[[Int]]] = []
        var wave: [Int] = []
        var claimed: [Int] = []
        var unfinished: [Int] = []
        var verdicts: [DeliveryVerdict]
        var remaining: Int

        /// The lane with a job ready to start, if any.
        var ready: Int? {
            lanes.indices.first { l in wave[l] < lanes[l].count && claimed[l] < lanes[l][wave[l]].count }
        }
    }
    private let state: Locked<State>

    init(lane: [String], wave waveKey: [String]) {
        var s = State(verdicts: Array(repeating: .retry, count: lane.count), remaining: lane.count)
        var laneIndex: [String: Int] = [:]
        for j in lane.indices {
            let l: Int
            if let known = laneIndex[lane[j]] {
                l = known
            } else {
                l = s.lanes.count
                laneIndex[lane[j]] = l
                s.lanes.append([])
            }
            if let last = s.lanes[l].last?.last, waveKey[last] == waveKey[j] {
                s.lanes[l][s.lanes[l].count - 1].append(j)
            } else {
                s.lanes[l].append([j])
            }
        }
        s.wave = Array(repeating: 0, count: s.lanes.count)
        s.claimed = Array(repeating: 0, count: s.lanes.count)
        s.unfinished = s.lanes.map { $0[0].count }
        state = Locked(s)
    }

    /// The next job a sender may start, waiting while every ready lane is busy; nil when all are done.
    func claim() -> (job: Int, lane: Int)? {
        state.wait(
            until: { $0.remaining == 0 || $0.ready != nil },
            then: { s, _ in
                guard s.remaining > 0, let l = s.ready else { return nil }
                s.claimed[l] += 1
                return (s.lanes[l][s.wave[l]][s.claimed[l] - 1], l)
            })
    }

    func finish(_ job: Int, lane l: Int, _ verdict: DeliveryVerdict) {
        state.change { s in
            s.verdicts[job] = verdict
            s.remaining -= 1
            s.unfinished[l] -= 1
            if s.unfinished[l] == 0 {
                s.wave[l] += 1
                s.claimed[l] = 0
                s.unfinished[l] = s.wave[l] < s.lanes[l].count ? s.lanes[l][s.wave[l]].count : 0
            }
        }
    }

    var results: [DeliveryVerdict] { state.withLock { $0.verdicts } }
}
