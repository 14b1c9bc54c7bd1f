import CCurl
import Switchyard
import Synchronization

import Foundation

/// One libcurl multi handle driven by one dedicated thread.
///
/// Other threads never call libcurl directly: they append a ``Command`` to the inbox and call
/// `curl_multi_wakeup`, which libcurl documents as safe from any thread. The loop thread drains
/// the inbox, runs `curl_multi_perform`, reads finished transfers, and sleeps in
/// `curl_multi_poll` until a socket is ready, a timer is due, or it is woken.
final class CurlEventLoop: Sendable {
    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case unpause(CurlTransfer)
        case shutdown
    }

    /// The multi handle's address. Only `curl_multi_wakeup` is called on it outside the loop
    /// thread, which libcurl documents as thread-safe; every other call happens on the loop thread.
    struct MultiHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
    }

    private let multi: MultiHandle
    private let inbox = Mutex<[Command]>([])
    /// Whether a `curl_multi_wakeup` was sent that the loop has not yet answered by draining.
    private let wakeupPending = Atomic<Bool>(false)
    private let configuration: CurlTransport.Configuration

    init(configuration: CurlTransport.Configuration) {
        _ = CurlEventLoop.globalInit
        self.configuration = configuration
        self.multi = MultiHandle(raw: curl_multi_init())
        _ = ccurl_multi_setopt_long(multi.raw, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = ccurl_multi_setopt_long(multi.raw, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxTotalConnections)
        _ = ccurl_multi_setopt_long(multi.raw, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ccurl_multi_setopt_long(multi.raw, CURLMOPT_MAXCONNECTS, max(1, configuration.maxIdleConnections))
        let thread = Thread { [self] in
            CurlLoopThreadState(loop: self, multi: multi.raw, configuration: configuration).run()
        }
        thread.name = "switchyard.curl"
        thread.start()
    }

    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()

    /// Queues a command for the loop thread and wakes it, unless a wake-up is already on its way:
    /// under load many commands arrive per loop turn, and one wake-up (a system call) serves them all.
    func submit(_ command: Command) {
        inbox.withLock { $0.append(command) }
        if !wakeupPending.exchange(true, ordering: .acquiringAndReleasing) {
            curl_multi_wakeup(multi.raw)
        }
    }

    /// Whether a command was queued since the loop last drained the inbox (loop thread).
    fileprivate var hasPendingWakeup: Bool { wakeupPending.load(ordering: .relaxed) }

    /// Takes every queued command (loop thread), swapping in `spare` (emptied) as the new inbox so
    /// neither array is reallocated.
    ///
    /// The pending flag is cleared *before* the inbox is read: a command queued after the read then
    /// finds the flag clear and wakes the loop again, so no command waits for an unrelated wake-up.
    fileprivate func drainInbox(into spare: inout [Command]) {
        wakeupPending.store(false, ordering: .sequentiallyConsistent)
        spare.removeAll(keepingCapacity: true)
        inbox.withLock { swap(&$0, &spare) }
    }
}

/// Everything the loop thread owns. Created on, and used only from, that thread.
private final class CurlLoopThreadState {
    let loop: CurlEventLoop
    let multi: UnsafeMutableRawPointer
    let configuration: CurlTransport.Configuration
    var active: [UnsafeMutableRawPointer: CurlEasyTransfer] = [:]
    var byTransfer: [ObjectIdentifier: CurlEasyTransfer] = [:]
    var idleHandles: [CurlEasyHandle] = []
    var shuttingDown = false
    /// The earliest deadline among active transfers, or `nil`. libcurl does not time out a
    /// transfer still queued for a connection, so the loop enforces deadlines itself.
    var nearestDeadline: ContinuousClock.Instant?
    /// Transfers whose head completed during the current loop turn.
    var headsReady: [CurlEasyTransfer] = []

    init(loop: CurlEventLoop, multi: UnsafeMutableRawPointer, configuration: CurlTransport.Configuration) {
        self.loop = loop
        self.multi = multi
        self.configuration = configuration
    }

    func run() {
        var commands: [CurlEventLoop.Command] = []
        while true {
            loop.drainInbox(into: &commands)
            var busy = !commands.isEmpty
            for command in commands { handle(command) }
            commands.removeAll(keepingCapacity: true)
            if shuttingDown {
                stop()
                return
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            busy = readFinishedTransfers() || !headsReady.isEmpty || busy
            for easy in headsReady { easy.flushHead() }
            headsReady.removeAll(keepingCapacity: true)
            expireOverdueTransfers()
            var timeout = -1
            curl_multi_timeout(multi, &timeout)
            var wait = Int32(timeout < 0 ? 1_000 : min(timeout, 1_000))
            if let nearestDeadline {
                let untilDeadline = ContinuousClock.now.duration(to: nearestDeadline).milliseconds
                wait = min(wait, Int32(max(0, untilDeadline.rounded(.up))))
            }
            // Only a turn that moved something polls on before sleeping: an idle timer tick does not.
            if wait > 0, !(busy && spinUntilSomethingArrives()) { curl_multi_poll(multi, nil, 0, wait, nil) }
        }
    }

    /// Keeps polling, without sleeping, for ``CurlTransport/Configuration/busyPollDuration`` before
    /// the loop goes to sleep. Returns `true` as soon as a command or socket event arrives.
    ///
    /// Sleeping in `curl_multi_poll` and being woken costs two context switches, which dominate a
    /// request's latency on loopback and on virtual machines; the next command or response usually
    /// arrives within tens of microseconds of the last one.
    private func spinUntilSomethingArrives() -> Bool {
        let spin = configuration.busyPollDuration
        guard spin > .zero else { return false }
        let until = ContinuousClock.now + spin
        var numfds: Int32 = 0
        repeat {
            curl_multi_poll(multi, nil, 0, 0, &numfds)
            // Checked after the poll, which may have consumed a wake-up: a consumed wake-up always
            // has its flag set already, so it is seen here rather than lost before a long sleep.
            if numfds > 0 || loop.hasPendingWakeup { return true }
        } while ContinuousClock.now < until
        return false
    }

    // MARK: - Commands

    private func handle(_ command: CurlEventLoop.Command) {
        switch command {
        case .start(let transfer): start(transfer)
        case .cancel(let transfer): cancel(transfer)
        case .unpause(let transfer):
            if let easy = byTransfer[ObjectIdentifier(transfer)] {
                curl_easy_pause(easy.handle.raw, ccurl_pause_continue())
            }
        case .shutdown: shuttingDown = true
        }
    }

    private func start(_ transfer: CurlTransfer) {
        guard !transfer.isFinished else { return }  // cancelled before the loop saw it
        guard let handle = idleHandles.popLast() ?? CurlEasyHandle() else {
            transfer.finish(.failure(.transportFailed("libcurl could not create a transfer handle (out of memory?).")))
            return
        }
        let easy = CurlEasyTransfer(handle: handle, transfer: transfer) { [unowned self] ready in
            headsReady.append(ready)
        }
        do {
            try easy.configure(configuration)
        } catch {
            transfer.finish(.failure(error))
            recycle(handle)
            return
        }
        let code = curl_multi_add_handle(multi, handle.raw)
        guard code == CURLM_OK else {
            transfer.finish(.failure(.transportFailed("libcurl refused the transfer: \(String(cString: curl_multi_strerror(code))).")))
            recycle(handle)
            return
        }
        active[handle.raw] = easy
        byTransfer[ObjectIdentifier(transfer)] = easy
        if let deadline = transfer.context.deadline {
            nearestDeadline = min(nearestDeadline ?? deadline, deadline)
        }
    }

    /// Fails every transfer whose deadline has passed, wherever it is (queued or on the wire).
    /// Scans only when the nearest deadline is due, so the hot path stays O(1).
    private func expireOverdueTransfers() {
        guard let due = nearestDeadline else { return }
        let now = ContinuousClock.now
        guard now >= due else { return }
        nearestDeadline = nil
        for easy in Array(active.values) {
            guard let deadline = easy.transfer.context.deadline else { continue }
            if deadline <= now {
                remove(easy)
                easy.transfer.finish(.failure(.timedOut("It was still queued or in flight on the curl transport.")))
            } else {
                nearestDeadline = min(nearestDeadline ?? deadline, deadline)
            }
        }
    }

    /// Removes the transfer's handle: libcurl closes its connection, which the server sees.
    private func cancel(_ transfer: CurlTransfer) {
        guard let easy = byTransfer[ObjectIdentifier(transfer)] else { return }
        remove(easy)
        transfer.finish(.failure(.cancelled))
    }

    /// Completes every transfer libcurl reports done; returns whether there was any.
    private func readFinishedTransfers() -> Bool {
        var remaining: Int32 = 0
        var any = false
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                  let easy = active[raw] else { continue }
            let code = message.pointee.data.result
            easy.complete(with: code)  // reads timings and the error buffer before the handle is reset
            remove(easy)
            any = true
        }
        return any
    }

    private func remove(_ easy: CurlEasyTransfer) {
        curl_multi_remove_handle(multi, easy.handle.raw)
        active[easy.handle.raw] = nil
        byTransfer[ObjectIdentifier(easy.transfer)] = nil
        recycle(easy.handle)
    }

    private func recycle(_ handle: CurlEasyHandle) {
        handle.reset()
        if idleHandles.count < configuration.idleHandleLimit { idleHandles.append(handle) }
    }

    private func stop() {
        for easy in Array(active.values) {
            remove(easy)
            easy.transfer.finish(.failure(.transportFailed("The curl transport was shut down while the request was in flight.")))
        }
        idleHandles.removeAll()
        curl_multi_cleanup(multi)
    }
}
