// swift-host: a Swift application showing its launch ad through LaunchAdKit, the Swift API.
//
//     launchad-swift-host FILE [launchad play options...]
//
// The ad draws into a pixel buffer (no display needed); each event is printed as "event NAME"
// ("event end completed" for the end), and the host exits 0 after the end.
import Foundation
import LaunchAdCore
import LaunchAdKit
import LaunchAdPlayer

let args = Array(CommandLine.arguments.dropFirst())
guard !args.isEmpty else {
    FileHandle.standardError.write(Data("usage: launchad-swift-host FILE [launchad play options...]\n".utf8))
    exit(2)
}
do {
    let ad = try LaunchAd(arguments: ["play"] + args)
    // Set by `ready` (or the `end`, when there is nothing to show): the ad can be presented.
    nonisolated(unsafe) var settled = false
    ad.onEvent = { e in
        if case .ready = e.event { settled = true }
        if case .end = e.event { settled = true }
        let line =
            switch e.event {
            case .end(let end): "event end \(end.outcome.rawValue)\n"
            case .error(let error): "event error \(error.code.text) \(error.message)\n"
            default: "event \(e.name)\n"
            }
        FileHandle.standardOutput.write(Data(line.utf8))
    }
    // Woken by the ad's own thread when a picture or an event is ready; a frame's time at most.
    let woken = DispatchSemaphore(value: 0)
    ad.setWakeup { woken.signal() }
    // Prepared on the ad's own threads; this thread goes on until `ready` says it is.
    try? ad.prepareNow(timeout: 0)
    try ad.attach(PlayerOutput.buffer(Size(width: 640, height: 360)))
    while !settled {
        _ = woken.wait(timeout: .now() + .milliseconds(100))
        ad.pollEvents()
    }
    try ad.present()
    while try ad.render() != .ended { _ = woken.wait(timeout: .now() + .milliseconds(16)) }
    ad.close()
} catch {
    FileHandle.standardError.write(Data("launchad-swift-host: \(error)\n".utf8))
    exit(1)
}
