// The floor of an async Swift API over libcurl: the raw C client's libcurl work, plus only what any
// `async` request function must add — a continuation per request, a locked hand-off to the thread
// that drives libcurl, a wake-up of that thread, and a resumption of the task on the cooperative pool.
// No request or response types, no header parsing, no body stream: bodies are counted, as in C.
// Comparing `yard bench --chain bare` with this separates Switchyard's own cost from the cost of
// crossing between Swift tasks and a libcurl thread, which neither can avoid.
import CLibcurl
import Foundation
import LoadShape
import Synchronization

/// One reusable easy handle and the task waiting for its transfer.
///
/// `@unchecked Sendable`: a slot is owned by one side at a time. A task fills `continuation` and
/// resets `bytes` before handing the slot over through `FloorLoop.pending` (a mutex, which orders
/// the writes); from then on only the loop thread touches it, until it resumes the continuation and
/// returns the slot to `FloorLoop.free` (again through a mutex).
final class Slot: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    var bytes = 0
    var continuation: CheckedContinuation<Int, any Error>?

    init(url: String) {
        easy = curl_easy_init()
        url.withCString { _ = floor_setopt_string(easy, CURLOPT_URL, $0) }
        _ = floor_setopt_write(easy) { _, size, count, user in
            Unmanaged<Slot>.fromOpaque(user!).takeUnretainedValue().bytes += size * count
            return size * count
        }
        _ = floor_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        _ = floor_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = floor_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        _ = floor_setopt_pointer(easy, CURLOPT_PRIVATE, me)
    }
}

struct TransferFailed: Error { let code: Int }

/// A thread that drives one multi handle; tasks submit slots and are resumed when they finish.
///
/// `@unchecked Sendable`: `multi` is used only on the loop thread, except `curl_multi_wakeup`, which
/// libcurl documents as callable from any thread; the queues are mutexes.
final class FloorLoop: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    private let url: String
    private let pending = Mutex<[Slot]>([])
    private let free = Mutex<[Slot]>([])

    init(url: String, connections: Int) {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        multi = curl_multi_init()
        self.url = url
        let thread = Thread { [self] in run() }
        thread.start()
    }

    /// Fetches the URL once; returns the number of body bytes.
    func fetch() async throws -> Int {
        let slot = free.withLock { $0.popLast() } ?? Slot(url: url)
        slot.bytes = 0
        return try await withCheckedThrowingContinuation { continuation in
            slot.continuation = continuation
            pending.withLock { $0.append(slot) }
            curl_multi_wakeup(multi)
        }
    }

    private func run() {
        var running: Int32 = 0
        var left: Int32 = 0
        while true {
            for slot in pending.withLock({ queue in defer { queue.removeAll(keepingCapacity: true) }; return queue }) {
                curl_multi_add_handle(multi, slot.easy)
            }
            curl_multi_perform(multi, &running)
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                var raw: UnsafeMutablePointer<CChar>?
                _ = withUnsafeMutablePointer(to: &raw) { pointer in
                    curl_easy_getinfo_pointer(easy, pointer)
                }
                let slot = Unmanaged<Slot>.fromOpaque(UnsafeRawPointer(raw!)).takeUnretainedValue()
                let result = message.pointee.data.result
                curl_multi_remove_handle(multi, easy)
                let continuation = slot.continuation
                slot.continuation = nil
                let bytes = slot.bytes
                free.withLock { $0.append(slot) }
                if result == CURLE_OK {
                    continuation?.resume(returning: bytes)
                } else {
                    continuation?.resume(throwing: TransferFailed(code: Int(result.rawValue)))
                }
            }
            curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
    }
}

let arguments = LoadArguments.fromCommandLine()
let loop = FloorLoop(url: arguments.url, connections: arguments.concurrency)
await measure(client: "curlfloor", arguments) { try await loop.fetch() }
