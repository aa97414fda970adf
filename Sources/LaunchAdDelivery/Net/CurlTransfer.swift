import CCurl
import Foundation
import LaunchAdCore

/// One GET of one URL through libcurl's easy interface, on the calling thread: no redirects
/// followed (the client decides), no decoding (identity asked for, an encoded body refused),
/// the body capped as it arrives, an error page's body read only to a few KB. curl waits in
/// poll(2) with its own timeouts, so an idle wait costs no CPU, and `--timeout` bounds the
/// whole transfer exactly. Owns its CURL handle and header list.
final class CurlTransfer {
    /// How much of an error page is read before the connection is dropped.
    static let errorBodyCap = 4096

    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// curl writes its detailed error line here; it keeps the pointer, so it is not Swift array storage.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    let request: FetchRequest
    let url: URL
    let progress: ((Int64) -> Void)?
    private(set) var status = 0
    private(set) var headers: [String: String] = [:]
    private(set) var sink: BodySink?
    private var errorBytes = 0
    /// The error page's first `errorBodyCap` bytes: the server's reason (ClickHouse puts its error there).
    private(set) var errorPage = Data()
    /// Why the transfer was stopped from a callback (a cap, an encoding, a write failure).
    private(set) var refusal: FetchError?
    private var stoppedAfterErrorBody = false
    /// Only public addresses may be connected to (the URL was named by a remote document).
    private let publicOnly: Bool
    /// Why a connection was not opened (an internal address for a public-only URL).
    private var addressRefusal: FetchError?

    private static let globalInit: Void = { _ = libcurl.curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init(
        url: URL, request: FetchRequest, connectTimeout: Double, totalTimeout: Double, userAgent: String,
        publicOnly: Bool, progress: ((Int64) -> Void)?
    ) throws {
        // A missing libcurl is this fetch's failure, said in one line, never an exit mid-run.
        if let problem = CurlLibrary.problem { throw FetchError(problem, retryable: false) }
        CurlTransfer.globalInit
        guard let h = libcurl.curl_easy_init() else { throw FetchError("cannot start a transfer (curl_easy_init)", retryable: true) }
        handle = h
        self.url = url; self.request = request; self.progress = progress; self.publicOnly = publicOnly
        launchad_curl_set_string(h, CURLOPT_URL, url.absoluteString)
        launchad_curl_set_string(h, CURLOPT_PROTOCOLS_STR, "http,https")
        launchad_curl_set_long(h, CURLOPT_FOLLOWLOCATION, 0)
        launchad_curl_set_long(h, CURLOPT_NOSIGNAL, 1)
        // At least 1 ms: curl reads 0 as "no limit".
        launchad_curl_set_long(h, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(connectTimeout * 1000)))
        launchad_curl_set_long(h, CURLOPT_TIMEOUT_MS, max(1, Int(totalTimeout * 1000)))
        // Silence (not one byte for --connect-timeout seconds) ends a transfer early.
        launchad_curl_set_long(h, CURLOPT_LOW_SPEED_LIMIT, 1)
        launchad_curl_set_long(h, CURLOPT_LOW_SPEED_TIME, max(1, Int(connectTimeout.rounded(.up))))
        launchad_curl_set_string(h, CURLOPT_USERAGENT, userAgent)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        launchad_curl_set_pointer(h, CURLOPT_ERRORBUFFER, errorBuffer)
        var list = libcurl.curl_slist_append(nil, "Accept-Encoding: identity")
        for (name, value) in request.headers { list = libcurl.curl_slist_append(list, "\(name): \(value)") }
        headerList = list
        launchad_curl_set_list(h, CURLOPT_HTTPHEADER, list)
        if request.method == "POST" { setBody(request.body ?? Data()) }
        installCallbacks()
    }

    /// The POST body; curl copies it (the size first), so it need not outlive this call.
    private func setBody(_ body: Data) {
        let h = handle
        launchad_curl_set_long(h, CURLOPT_POSTFIELDSIZE, body.count)
        _ = body.withUnsafeBytes { bytes in
            launchad_curl_set_pointer(
                h, CURLOPT_COPYPOSTFIELDS,
                UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)))
        }
    }

    /// curl's calls back into this transfer: headers, cancellation, each socket, the body.
    private func installCallbacks() {
        let h = handle
        let context = Unmanaged.passUnretained(self).toOpaque()
        launchad_curl_set_pointer(h, CURLOPT_HEADERDATA, context)
        launchad_curl_set_data_fn(h, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let me = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            me.header(String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
            return size * count
        }
        if request.isCancelled != nil {
            launchad_curl_set_long(h, CURLOPT_NOPROGRESS, 0)
            launchad_curl_set_pointer(h, CURLOPT_XFERINFODATA, context)
            launchad_curl_set_progress_fn(h) { context, _, _, _, _ in
                let me = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return me.request.isCancelled?() == true ? 1 : 0
            }
        }
        // Every address curl is about to connect to, after resolving, on every attempt.
        launchad_curl_set_pointer(h, CURLOPT_OPENSOCKETDATA, context)
        launchad_curl_set_opensocket_fn(h) { context, _, address in
            let me = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            guard let address else { return launchad_curl_socket_bad() }
            return me.openSocket(address)
        }
        launchad_curl_set_pointer(h, CURLOPT_WRITEDATA, context)
        launchad_curl_set_data_fn(h, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let me = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return me.body(Data(bytes: data!, count: size * count)) ? size * count : 0
        }
    }

    deinit {
        libcurl.curl_easy_cleanup(handle)
        libcurl.curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Opens the socket curl asked for, unless the address is internal and the URL public-only.
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let a = address.pointee
        if publicOnly {
            let ip = AddressPolicy.numeric(launchad_curl_sockaddr(address)) ?? "?"
            if AddressPolicy.isInternal(ip) {
                addressRefusal = FetchError(
                    "refusing \(TerminalText.quoted(url.absoluteString)): it resolves to \(ip), an internal address, and was named by a "
                        + "document from a public address (--allow-private-network allows it in a lab)", retryable: false)
                return launchad_curl_socket_bad()
            }
        }
        return socket(a.family, a.socktype | Int32(SOCK_CLOEXEC.rawValue), a.protocol)
    }

    /// Whether the address the transfer reached is internal (loopback, LAN, link-local, ...);
    /// an address curl does not report counts as public, so what the body names stays public-only.
    var peerIsInternal: Bool {
        var p: UnsafeMutablePointer<CChar>?
        guard launchad_curl_get_string(handle, CURLINFO_PRIMARY_IP, &p) == CURLE_OK, let p else { return false }
        return AddressPolicy.isKnownInternal(String(cString: p))
    }

    /// Runs the transfer; throws the one-line reason it failed.
    func perform() throws {
        let code = libcurl.curl_easy_perform(handle)
        try? sink?.close()
        if let refusal { throw refusal }
        if code != CURLE_OK, let addressRefusal { throw addressRefusal }
        if code == CURLE_WRITE_ERROR && stoppedAfterErrorBody { return }
        var promised: curl_off_t = -1
        launchad_curl_get_size(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &promised)
        switch code {
        case CURLE_OK:
            // An empty 2xx body still makes its (empty) file.
            if (200..<300).contains(status) && sink == nil {
                sink = try BodySink(destination: request.destination)
                try sink?.close()
            }
            return
        case CURLE_ABORTED_BY_CALLBACK:
            throw FetchError("cancelled: \(TerminalText.quoted(url.absoluteString))", retryable: false)
        case CURLE_OPERATION_TIMEDOUT:
            throw FetchError("timed out: \(TerminalText.quoted(url.absoluteString)) (\(message(code)))", retryable: true)
        case CURLE_PARTIAL_FILE:
            throw FetchError(
                "truncated response: \(sink?.count ?? 0) of \(promised) bytes from \(TerminalText.quoted(url.absoluteString))",
                retryable: true)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CONNECT_ERROR:
            throw FetchError(
                "\(TerminalText.quoted(url.absoluteString)): TLS certificate not trusted or handshake failed: \(message(code))",
                retryable: false)
        case CURLE_UNSUPPORTED_PROTOCOL:
            throw FetchError("unsupported URL scheme in \(TerminalText.quoted(url.absoluteString))", retryable: false)
        default:
            throw FetchError("\(TerminalText.quoted(url.absoluteString)): \(message(code))", retryable: true)
        }
    }

    /// curl's own detailed line when it wrote one, else the code's text.
    private func message(_ code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? libcurl.curl_easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)" : detail
    }

    /// The redirect's target (curl works it out from Location, relative ones included).
    var redirectURL: URL? {
        var p: UnsafeMutablePointer<CChar>?
        guard launchad_curl_get_string(handle, CURLINFO_REDIRECT_URL, &p) == CURLE_OK, let p else { return nil }
        return URL(string: String(cString: p))
    }

    private func header(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new response (after a 100 Continue): its headers replace the last one's.
            headers = [:]
            status = trimmed.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = trimmed.firstIndex(of: ":") {
            headers[trimmed[..<colon].lowercased()] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    /// False stops the transfer.
    private func body(_ data: Data) -> Bool {
        guard (200..<300).contains(status) else {
            // An error page is not kept: a few KB are read, then the connection is dropped.
            errorPage.append(data.prefix(max(0, CurlTransfer.errorBodyCap - errorPage.count)))
            errorBytes += data.count
            if errorBytes > CurlTransfer.errorBodyCap { stoppedAfterErrorBody = true; return false }
            return true
        }
        if sink == nil {
            if let encoding = headers["content-encoding"]?.lowercased(), encoding != "identity" {
                return stop(
                    FetchError(
                        "refusing a \(encoding)-encoded body from \(TerminalText.quoted(url.absoluteString)) (launchad asks for identity encoding)",
                        retryable: false))
            }
            if let length = headers["content-length"].flatMap(Int64.init), length > bodyCap {
                return stop(
                    FetchError(
                        "\(request.url.lastPathComponent) is \(length) bytes, over the \(bodyCap)-byte limit", retryable: false,
                        tooLarge: true))
            }
            do { sink = try BodySink(destination: request.destination) } catch let e as FetchError { return stop(e) } catch { return false }
        }
        guard let sink else { return false }
        do { try sink.append(data) } catch {
            let reason = FileProblem(error, path: request.destination?.path ?? "the download", access: .write).reason
            return stop(FetchError("cannot write the download: \(reason)", retryable: false))
        }
        if sink.count > bodyCap {
            return stop(FetchError("\(request.url.lastPathComponent) is over the \(bodyCap)-byte limit", retryable: false, tooLarge: true))
        }
        progress?(sink.count)
        return true
    }

    /// The most bytes this answer may carry: a partial one no more than the range asked.
    private var bodyCap: Int64 {
        status == 206 ? min(request.maxBytes, request.partialMaxBytes ?? request.maxBytes) : request.maxBytes
    }

    private func stop(_ error: FetchError) -> Bool {
        if refusal == nil { refusal = error }
        return false
    }
}
