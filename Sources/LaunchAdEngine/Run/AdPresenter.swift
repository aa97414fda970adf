import Foundation
import LaunchAdCore
import LaunchAdPlayer

/// Shows one ad's player until it is over: in a window of its own (the command line), or in an
/// application's window, driven by that application's loop (the embedding library). The flows
/// (`play`, a VAST pod, `launch`) decide what plays; the presenter only shows it.
public protocol AdPresenter: Sendable {
    /// Plays `player` to its end and returns how it ended.
    func present(_ player: AdPlayer) -> PlayResult
}

/// The command line's presenter: the player's own window and loop.
public struct WindowPresenter: AdPresenter {
    private let quitRequested: @Sendable () -> Bool

    /// The player's own window; `quitRequested` (asked at every turn) ends the ad as a closed window does.
    public init(quitRequested: @escaping @Sendable () -> Bool = { false }) { self.quitRequested = quitRequested }

    public func present(_ player: AdPlayer) -> PlayResult { player.run(quitRequested: quitRequested) }
}
