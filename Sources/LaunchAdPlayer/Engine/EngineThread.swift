import CSDL2
import Foundation

/// Starts one of the engine's threads. It carries its name in the kernel (Foundation's
/// `Thread.name` does not reach /proc on Linux), so `top -H`, gdb and the tests can see which
/// engine threads are alive; it leaves `group` when `body` returns.
func startEngineThread(_ name: String, in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    let t = Thread {
        _ = launchad_name_this_thread(name)
        body()
        group.leave()
    }
    t.name = name
    t.start()
}
