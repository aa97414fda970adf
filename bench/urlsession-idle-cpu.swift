// Why LaunchAd talks to libcurl directly: Foundation's URLSession on Linux spins while it waits.
// One data task against a loopback server that accepts and never answers, 8 s request timeout;
// prints when it gave up and the CPU seconds the process used. Run:
//   swiftc -O bench/urlsession-idle-cpu.swift -o /tmp/us && /tmp/us
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
// a silent server: listen, never answer
let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
var addr = sockaddr_in(); addr.sin_family = sa_family_t(AF_INET); addr.sin_addr.s_addr = inet_addr("127.0.0.1"); addr.sin_port = UInt16(18777).bigEndian
_ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
listen(fd, 4)
let cfg = URLSessionConfiguration.ephemeral
cfg.timeoutIntervalForRequest = 8
let s = URLSession(configuration: cfg)
let sem = DispatchSemaphore(value: 0)
let t0 = Date()
s.dataTask(with: URL(string: "http://127.0.0.1:18777/x")!) { _, _, e in print("done", e.map { "\($0)" } ?? "-", Date().timeIntervalSince(t0)); sem.signal() }.resume()
sem.wait()
var ru = rusage(); getrusage(RUSAGE_SELF.rawValue, &ru)
print("cpu", Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec)/1e6 + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec)/1e6)
