import CCurl
import Foundation
import HoorayKit
import HoorayThreads
import Synchronization

/// One HTTP POST, as the providers describe it to the transport.
struct HTTPRequest: Sendable {
    /// The checked address.
    var target: EndpointPolicy.Target
    /// Header lines such as `Content-Type: application/json`.
    var headers: [String]
    /// The request body.
    var body: Data
    /// How long connecting may take.
    var connectTimeout: Duration
    /// How long the whole exchange may take.
    var timeout: Duration
    /// The most response bytes accepted; more aborts the transfer.
    var maxResponseBytes: Int
    /// Where a successful answer's bytes go as they arrive, instead of into ``HTTPResponse/body``;
    /// `false` ends the transfer, which then counts as answered. `nil` keeps the whole body.
    /// Called on the transfer's own thread.
    var stream: (@Sendable (UnsafeRawBufferPointer) -> Bool)? = nil
    /// For a stream: the transfer ends as timed out when no byte arrives for this many seconds.
    var stallSeconds: Int? = nil
}

/// A complete answer with a success status.
struct HTTPResponse: Sendable {
    /// The HTTP status, 200 to 299.
    var status: Int
    /// The body, at most the request's `maxResponseBytes` long.
    var body: Data
}

/// HTTP POST over libcurl, one easy handle on one dedicated thread per request.
///
/// A curl easy transfer blocks its thread until it ends, so it must never run on the Swift
/// cooperative pool, whose few threads every task shares. Requests are rare (one per logged win,
/// plus background retries), so a thread each is cheap and keeps a slow server from delaying
/// another request.
enum CurlHTTP {

    /// Sends a POST and waits for its answer.
    ///
    /// Cancelling the calling task aborts the transfer within about a second: libcurl asks the
    /// progress callback at least that often whether to go on.
    ///
    /// - Parameter request: What to send.
    /// - Returns: The answer, when its status is 2xx.
    /// - Throws: ``AIRequestError`` for every failure, or `CancellationError`.
    static func post(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let transfer = CurlTransfer(request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let thread = Thread {
                    nameThisThread("hooray-ai-http")
                    continuation.resume(with: transfer.perform())
                }
                thread.name = "hooray-ai-http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}

/// The state of one transfer, shared with libcurl's callbacks through an opaque pointer.
///
/// `received` and `exceeded` are touched only by the transfer's own thread (in `perform` and the
/// callbacks it runs); `cancelled` is atomic because any thread may cancel. That division is what
/// makes the `@unchecked Sendable` sound.
final class CurlTransfer: @unchecked Sendable {
    private let request: HTTPRequest
    private let cancelled = Atomic<Bool>(false)
    private var received = Data()
    private var exceeded = false
    /// The handle of the running transfer; the write callback reads the status from it.
    private var handle: UnsafeMutableRawPointer?
    /// The answer's status, read with its first byte, for a stream.
    private var status: Int?
    /// How many bytes went to the stream.
    private var streamed = 0
    /// Whether the stream's sink asked to stop.
    private var sinkStopped = false

    init(_ request: HTTPRequest) {
        self.request = request
    }

    /// Asks the transfer to stop; it ends at its next callback.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs the transfer on the calling thread, blocking it until the transfer ends.
    func perform() -> Result<HTTPResponse, any Error> {
        guard !isCancelled else { return .failure(CancellationError()) }
        // libcurl is loaded (and set up) with the first request: see hooray_curl.h.
        var why = [CChar](repeating: 0, count: 512)
        if hooray_curl_load(&why, why.count) == 0 {
            let reason = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(AIRequestError(.networkLibraryMissing(reason: reason)))
        }
        guard let handle = hooray_curl_easy_init() else {
            return .failure(AIRequestError.unreachable(reason: "the network library (libcurl) could not start"))
        }
        defer { hooray_curl_easy_cleanup(handle) }
        self.handle = handle
        defer { self.handle = nil }
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        for line in request.headers { headerList = hooray_curl_slist_append(headerList, line) }
        defer {
            // libcurl's copies of the headers hold the API key (Authorization): wiped before they are freed.
            var item = headerList
            while let entry = item {
                if let text = entry.pointee.data { explicit_bzero(text, strlen(text)) }
                item = entry.pointee.next
            }
            hooray_curl_slist_free_all(headerList)
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        let code: CURLcode
        do {
            try configure(handle, headers: headerList, errorBuffer: errorBuffer)
            code = hooray_curl_easy_perform(handle)
        } catch {
            return .failure(error)
        }
        return outcome(of: code, handle: handle, errorBuffer: errorBuffer)
    }

    /// Sets every option; any option libcurl refuses stops the request, since several are what keep it safe.
    private func configure(
        _ handle: UnsafeMutableRawPointer, headers: UnsafeMutablePointer<curl_slist>?,
        errorBuffer: UnsafeMutablePointer<CChar>
    ) throws(AIRequestError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let target = request.target
        func check(_ code: CURLcode, _ option: String) throws(AIRequestError) {
            guard code == CURLE_OK else {
                throw .unreachable(reason: "the network library (libcurl) refused the option \(option)")
            }
        }
        try check(hooray_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "ERRORBUFFER")
        try check(hooray_curl_setopt_string(handle, CURLOPT_URL, target.url), "URL")
        // Only the endpoint's own scheme; a plain-http loopback endpoint must not become anything else.
        try check(hooray_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, target.scheme), "PROTOCOLS_STR")
        // Signals would be delivered to whichever thread libcurl runs on; timeouts must not rely on them.
        try check(hooray_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
        try check(
            hooray_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout)),
            "CONNECTTIMEOUT_MS")
        try check(hooray_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout)), "TIMEOUT_MS")
        // Custom headers (x-user-id, the API key) would be re-sent to wherever a redirect points.
        try check(hooray_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0), "FOLLOWLOCATION")
        try check(hooray_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), "SSL_VERIFYPEER")
        try check(hooray_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), "SSL_VERIFYHOST")
        if let stall = request.stallSeconds {
            // A stream may last long, as long as bytes keep coming: under 1 byte a second for this long ends it.
            try check(hooray_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1), "LOW_SPEED_LIMIT")
            try check(hooray_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, stall), "LOW_SPEED_TIME")
        }
        if target.isLoopback {
            // A proxy from http_proxy would carry a loopback request, unencrypted, off this computer.
            try check(hooray_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"), "NOPROXY")
        }
        try check(hooray_curl_setopt_string(handle, CURLOPT_USERAGENT, "Hooray"), "USERAGENT")
        try check(hooray_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers), "HTTPHEADER")
        try check(hooray_curl_setopt_long(handle, CURLOPT_POST, 1), "POST")
        try check(
            hooray_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)),
            "POSTFIELDSIZE_LARGE")
        let copied = request.body.withUnsafeBytes { bytes in
            hooray_curl_setopt_pointer(
                handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
        try check(copied, "COPYPOSTFIELDS")
        // A declared length over the cap ends the transfer before the body arrives; the write
        // callback catches bodies that declare no length.
        try check(
            hooray_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes)),
            "MAXFILESIZE_LARGE")
        try check(hooray_curl_setopt_write_function(handle, curlWrite), "WRITEFUNCTION")
        try check(hooray_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "WRITEDATA")
        try check(hooray_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0), "NOPROGRESS")
        try check(hooray_curl_setopt_xferinfo_function(handle, curlProgress), "XFERINFOFUNCTION")
        try check(hooray_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "XFERINFODATA")
    }

    /// Maps how the transfer ended to a response or an error.
    private func outcome(
        of code: CURLcode, handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>
    ) -> Result<HTTPResponse, any Error> {
        if isCancelled { return .failure(CancellationError()) }
        if sinkStopped, let status {
            // The stream had what it needed (or found the answer broken, which it says itself).
            return .success(HTTPResponse(status: status, body: Data()))
        }
        if exceeded || code == CURLE_FILESIZE_EXCEEDED {
            return .failure(AIRequestError.responseTooLarge(limit: request.maxResponseBytes))
        }
        switch code {
        case CURLE_OK:
            var status = 0
            _ = hooray_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            switch status {
            case 200..<300: return .success(HTTPResponse(status: status, body: received))
            case 300..<400: return .failure(AIRequestError.redirected)
            default: return .failure(AIRequestError.httpStatus(status))
            }
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(AIRequestError.timedOut)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .failure(AIRequestError.insecureEndpoint(url: request.target.shown))
        default:
            // libcurl's detailed message names hosts and ports, never headers or bodies.
            let detail = String(cString: errorBuffer)
            let reason = detail.isEmpty ? String(cString: hooray_curl_easy_strerror(code)) : detail
            return .failure(AIRequestError.unreachable(reason: reason.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    /// Keeps a chunk of the answer, or refuses it (ending the transfer) past the cap or after cancellation.
    fileprivate func receive(_ bytes: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        guard !isCancelled else { return 0 }
        if let sink = request.stream {
            if status == nil, let handle {
                var code = 0
                _ = hooray_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
                status = code
            }
            if let status, (200..<300).contains(status) {
                streamed += count
                guard streamed <= request.maxResponseBytes else {
                    exceeded = true
                    return 0
                }
                guard sink(UnsafeRawBufferPointer(start: bytes, count: count)) else {
                    sinkStopped = true
                    return 0
                }
                return count
            }
        }
        guard received.count + count <= request.maxResponseBytes else {
            exceeded = true
            return 0
        }
        if let bytes, count > 0 {
            received.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
        }
        return count
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// libcurl's write callback: hands each chunk of the answer to its transfer.
private func curlWrite(
    _ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receive(bytes, count: size * count)
}

/// libcurl's progress callback: a non-zero result aborts the transfer, which is how cancellation
/// reaches a transfer that is waiting for a silent server.
private func curlProgress(
    _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
    _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
) -> Int32 {
    guard let context else { return 1 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
}
