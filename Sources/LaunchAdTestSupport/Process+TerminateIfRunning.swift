import Foundation

extension Process {
    /// SIGTERM, only while the process has not been reaped. Foundation's `terminate()` signals
    /// the pid even after the process ended and was reaped; with 32,768 pids and three test
    /// processes side by side starting thousands of programs, that pid may be another test's
    /// Xvfb or openbox by then (one was killed so: "openbox did not take over :0").
    public func terminateIfRunning() {
        if isRunning { terminate() }
    }
}
