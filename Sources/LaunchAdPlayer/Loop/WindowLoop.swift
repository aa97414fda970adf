import CSDL2
import Foundation
import LaunchAdCore
import LaunchAdMedia

/// The command line's loop: SDL's video started, the player's own window opened once the
/// creative's shape is known, SDL's events, the control channel and quit signals turned into
/// session inputs, and the player turned until the ad is over, sleeping until the next picture
/// is due (or the engine wakes it).
final class WindowLoop {
    unowned let player: AdPlayer
    private var config: PlayerConfig { player.config }
    private var video: SDLVideo? { player.video }
    private var control: ControlChannel?
    /// When the loop started: a window whose size waits for the creative opens by 400 ms anyway.
    private var startMs = 0
    /// The header's size the window opened at, before the streams were probed; the window
    /// takes the probed size if that differs (a sample aspect only the stream itself carries).
    private var windowGuess: Size?
    /// The command line's quit signals, as SDL's quit.
    private let quitRequested: () -> Bool
    /// The supervisor's view of this thread (nil: nobody watches).
    private var pulse: PlayerPulse? { player.pulse }
    private var firstFrameSaid = false
    /// The window was off screen at the last turn.
    private var offScreen = false
    /// What another thread may call to end the ad when this one is stuck.
    private var mediaStop: (@Sendable () -> Void)?
    private var windowTakeOff: (@Sendable () -> Void)?

    init(_ player: AdPlayer, quitRequested: @escaping () -> Bool) {
        self.player = player
        self.quitRequested = quitRequested
    }

    /// Runs the ad to its end; the window stays for a hand-off when the player holds its last picture.
    func run() -> Outcome {
        startMs = ProcessClock.nowMs()
        player.windowLoop = self
        // A supervisor on another thread watches this one from here (RunDeadline).
        pulse?.playerStarted(
            firstFrameWithinMs: RunDeadline.firstFrameWithinMs(waitMs: config.session.waitMs, hasFallback: config.fallback != nil))
        defer {
            pulse?.beat(.stopping)
            if player.holdsLastPicture { player.stopMedia() } else { player.tearDown() }
            pulse?.playerReturned()
        }
        pulse?.beat(.startingSound)
        PlayerTestSeam.block(at: .startingSound)
        player.startMedia()
        if let engine = player.engine { mediaStop = { engine.stop() } }
        offerStop()
        pulse?.beat(.startingVideo)
        do {
            player.video = try SDLVideo()
        } catch {
            return player.finish(
                player.session.handle(
                    .failed(code: (error as? SDLError)?.code ?? .noDisplay, message: "\(error)"), now: ProcessClock.nowMs())) ?? .error
        }
        if config.controlStdin {
            control = ControlChannel()
            control?.start()
        }
        while true {
            let now = ProcessClock.nowMs()
            pulse?.beat(.turning, waitPaused: player.session.phase == .waiting && player.session.isPaused)
            if firstFrameSaid { PlayerTestSeam.block(at: .turning) }
            if player.output == nil, let outcome = openWindowWhenSized(now: now) { return outcome }
            if let outcome = pumpEvents(now: now) { return outcome }
            if !windowOnScreen {
                // The window manager has not mapped the window (SDL's wait for it was ended):
                // the player does not turn (its wait is the loop's to judge) until it does, and
                // the ad gives up when its wait for the first frame is over.
                if let outcome = windowGivenUp(now: now, onScreen: false) { return outcome }
                offScreen = true
                player.tellService(now: now)
                _ = libsdl.SDL_WaitEventTimeout(nil, 10)
                continue
            }
            if offScreen {
                offScreen = false
                player.dirty = true
            }
            if let outcome = player.turn(now: now) { return outcome }
            if player.firstFrameShown && !firstFrameSaid {
                firstFrameSaid = true
                pulse?.firstFrameShown()
            }
            player.tellService(now: ProcessClock.nowMs())
            _ = libsdl.SDL_WaitEventTimeout(nil, player.waitMs())
        }
    }

    /// Whether the player's own window is on screen (false only while a window manager keeps
    /// it unmapped after SDL's wait for the map was ended: `X11WindowMap`).
    var windowOnScreen: Bool { player.window?.isOnScreen() ?? true }

    /// The window is still not on screen: once the ad's wait for its first frame is over, the
    /// ad ends `error` `window_unavailable`.
    private func windowGivenUp(now: Int, onScreen: Bool? = nil) -> Outcome? {
        guard player.window != nil, !(onScreen ?? windowOnScreen),
            RunDeadline.windowGivenUp(now: now, waitStartedMs: startMs, waitMs: config.session.waitMs)
        else { return nil }
        let message = "the window manager did not put the window on screen within --wait (\(config.session.waitMs) ms)"
        return player.finish(player.session.handle(.failed(code: .windowUnavailable, message: message), now: now)) ?? .error
    }

    /// Tells the supervisor how to end the ad from its thread: the media stopped, the window off the screen.
    private func offerStop() {
        guard let pulse else { return }
        let (media, window) = (mediaStop, windowTakeOff)
        pulse.stoppable {
            media?()
            window?()
        }
    }

    /// The creative opened: a window opened at the header's guess takes the probed shape.
    func creativeOpened(_ f: VideoFacts) {
        if let guess = windowGuess, guess != f.displaySize, let window = player.window {
            window.resize(
                to: windowSize(
                    requested: nil, device: nil, content: config.rotation.scene(f.displaySize), display: video?.usableDisplaySize))
            player.dirty = true
        }
        windowGuess = nil
    }

    func stopControl() { control?.stop() }

    /// Creates the window once the creative's size is known (or after a short wait, at the
    /// default size), so it opens at the right shape without holding up the first frame.
    func openWindowWhenSized(now: Int, force: Bool = false) -> Outcome? {
        var contentSize: Size?
        // A window whose size does not depend on the ad opens at once, while the file opens.
        let sizeKnown = config.size != nil || config.device != nil || config.fullscreen
        switch player.engine?.state {
        // A still image opens the window itself once decoded, at the picture's shape.
        case .ready(let f) where f.isStillImage && !force: return nil
        case .ready(let f): contentSize = f.isStillImage ? nil : f.displaySize
        // The header's size is known before the streams are probed: the window opens (and
        // shows its first, blank picture) while they are.
        case .opening where !player.session.usingFallback && !sizeKnown:
            if let early = player.engine?.headerDisplaySize {
                contentSize = early
                windowGuess = early
            } else if now - startMs < 400 {
                return nil
            }
        // No window for an ad that failed: the fallback (if any) opens it, sized to the picture.
        case .failed where !force: return nil
        default: break
        }
        // --size and --device are the output's shape; the ad's own shape is the scene's, turned.
        // A fullscreen window is created at the display's size, its final one: made fullscreen
        // from a smaller size, it stays smaller on an X server without a window manager.
        let size = windowSize(
            requested: config.size, device: config.device, content: (contentSize ?? player.content?.size).map(config.rotation.scene),
            display: video?.usableDisplaySize, fullscreenDisplay: config.fullscreen ? video?.displaySize : nil)
        do {
            pulse?.beat(.openingWindow)
            PlayerTestSeam.block(at: .openingWindow)
            player.output = try PlayerOutput.ownWindow(
                size: size, fullscreen: config.fullscreen, rotation: config.rotation, videoDriver: video?.driverName ?? "none")
            pulse?.beat(.turning)
            windowTakeOff = player.window?.takeOff()
            offerStop()
            player.outputAttached()
            player.renderer?.clear()
            player.renderer?.present()
            // Creating a window sends shown/hidden events of its own; they are not the viewer's doing.
            libsdl.SDL_PumpEvents()
            libsdl.SDL_FlushEvent(SDL_WINDOWEVENT.rawValue)
            // Its map took the whole wait, and the window manager still has not mapped it.
            if let outcome = windowGivenUp(now: ProcessClock.nowMs()) { return outcome }
        } catch {
            return player.finish(
                player.session.handle(
                    .failed(code: (error as? SDLError)?.code ?? .windowFailed, message: "\(error)"), now: ProcessClock.nowMs()))
        }
        return nil
    }

    private func pumpEvents(now: Int) -> Outcome? {
        // A quit signal the command line noted: SDL's quit, as if it had.
        if quitRequested(), let outcome = player.carryOut(player.session.handle(.closeRequested, now: ProcessClock.nowMs())) {
            return outcome
        }
        var e = SDL_Event()
        while libsdl.SDL_PollEvent(&e) != 0 {
            if let input = player.input(from: e), !player.iconTook(input),
                let outcome = player.carryOut(player.session.handle(input, now: ProcessClock.nowMs()))
            {
                return outcome
            }
            if e.type == SDL_WINDOWEVENT.rawValue { player.dirty = true }
        }
        let lines = control?.take() ?? []
        for line in lines {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            guard let command = ControlCommand.parse(line) else {
                let known = ControlCommand.allCases.map(\.rawValue).joined(separator: ", ")
                player.events.emit(.controlError(line: line, message: "unknown control command; expected one of \(known)"))
                continue
            }
            if let outcome = player.carryOut(player.session.handle(.control(command), now: ProcessClock.nowMs())) { return outcome }
        }
        // Acted on, and the ad goes on: the next control line may be read.
        if let control, !lines.isEmpty, player.session.phase == .waiting || player.session.phase == .showing { control.proceed() }
        return nil
    }
}
