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
    ad.onEvent = { e in
        let line = if case .end(let end) = e.event { "event end \(end.outcome.rawValue)\n" } else { "event \(e.name)\n" }
        FileHandle.standardOutput.write(Data(line.utf8))
    }
    try? ad.prepareNow(timeout: 5)
    try ad.attach(PlayerOutput.buffer(Size(width: 640, height: 360)))
    ad.present()
    while ad.render() != .ended { Thread.sleep(forTimeInterval: 0.005) }
    ad.close()
} catch {
    FileHandle.standardError.write(Data("launchad-swift-host: \(error)\n".utf8))
    exit(1)
}
