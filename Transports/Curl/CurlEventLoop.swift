import CCurl
import Foundation
import SwitchyardCore
import SwitchyardTransportKit
import Synchronization

/// One libcurl multi handle driven by one dedicated thread.
///
/// Other threads never call libcurl directly: they append a ``Command`` to the inbox and call
/// `curl_multi_wakeup`, which libcurl documents as safe from any thread. The loop thread drains
/// the inbox, runs `curl_multi_perform`, reads finished transfers, and sleeps in
/// `curl_multi_poll` until a socket is ready, a timer is due, or it is woken.
///
/// The loop is also a `TaskExecutor`: a task that prefers it runs its jobs on the loop thread between
/// libcurl calls, so the transfers it starts and the responses it reads never cross to another
/// thread. Jobs queue in the same inbox as commands, in order.
final class CurlEventLoop: TaskExecutor {
    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case unpause(CurlTransfer)
        /// A job of a task that prefers this loop as its executor.
        case run(UnownedJob)
        case shutdown
    }

    /// The multi handle's address. Only `curl_multi_wakeup` is called on it outside the loop
    /// thread, which libcurl documents as thread-safe; every other call happens on the loop thread.
    struct MultiHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
    }

    private let multi: MultiHandle
    private let inbox = Lock<[Command]>([])
    /// Whether a command was queued that the loop has not yet taken by draining the inbox.
    private let wakeupPending = Atomic<Bool>(false)
    /// Whether the loop thread is blocked (or about to block) in `curl_multi_poll`. Only then does a
    /// submitter call `curl_multi_wakeup`: a loop that is awake or busy-polling sees ``wakeupPending``
    /// on its own, which saves the wake-up's send and the loop's receive per command.
    private let loopSleeping = Atomic<Bool>(false)
    private let configuration: CurlTransport.Configuration
    /// Set by the loop thread before it cleans up: commands queued after it are failed by whoever
    /// finds them (the loop's last drain or ``submit(_:)`` itself), never left waiting.
    private let stopped = Atomic<Bool>(false)
    /// The multi handle for `curl_multi_wakeup` while it exists (`nil` once cleaned up), so a
    /// wake-up racing the shutdown never touches a freed handle. Locked only on the wake-up path,
    /// which makes a system call anyway.
    private let wakeupTarget: Lock<MultiHandle?>
    /// Callers of ``shutdown()`` waiting for the loop thread to finish, and whether it has.
    private let shutdownWaiters = Lock<(finished: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init(configuration: CurlTransport.Configuration) {
        _ = CurlEventLoop.globalInit
        self.configuration = configuration
        self.multi = MultiHandle(raw: curl_multi_init())
        self.wakeupTarget = Lock(multi)
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

    /// Queues a job of a task that prefers this loop; it runs on the loop thread's next turn. After
    /// the loop stopped, the job runs on the global concurrent executor instead: a preference, not
    /// a promise, and no task may be left unrun.
    func enqueue(_ job: consuming ExecutorJob) {
        submit(.run(UnownedJob(job)))
    }

    /// Queues a command for the loop thread and wakes it if it sleeps, unless a wake-up is already on
    /// its way: under load many commands arrive per loop turn, and one wake-up (a system call) serves
    /// them all.
    ///
    /// No command is left waiting for an unrelated wake-up: the flag is set before ``loopSleeping`` is
    /// read here, and the loop sets ``loopSleeping`` before it reads the flag (``sleep(_:)``), both
    /// sequentially consistent, so at least one side sees the other.
    ///
    /// After the loop stopped, the command is failed here: the loop sets ``stopped`` before its last
    /// drain and this reads it after queueing, both sequentially consistent, so each command is
    /// taken by one of the two.
    func submit(_ command: Command) {
        inbox.withLock { $0.append(command) }
        if stopped.load(ordering: .sequentiallyConsistent) {
            failCommandsAfterStop()
            return
        }
        if !wakeupPending.exchange(true, ordering: .sequentiallyConsistent),
            loopSleeping.load(ordering: .sequentiallyConsistent)
        {
            wakeupTarget.withLock { target in
                if let target { curl_multi_wakeup(target.raw) }
            }
        }
    }

    /// Stops the loop thread (transfers in flight fail), closes every connection and returns once
    /// libcurl has cleaned up; later calls return at once.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = shutdownWaiters.withLock { state in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() } else { submit(.shutdown) }
        }
    }

    /// Marks the loop stopped (loop thread, before its last drain of the inbox).
    fileprivate func markStopped() {
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    /// Forgets the multi handle (loop thread, just before `curl_multi_cleanup`) and, after the
    /// cleanup, releases the callers of ``shutdown()``.
    fileprivate func finishStopping(cleanUp: () -> Void) {
        wakeupTarget.withLock { $0 = nil }
        cleanUp()
        let waiters = shutdownWaiters.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Fails every queued transfer: the loop is gone.
    fileprivate func failCommandsAfterStop() {
        let commands = inbox.withLock { inbox in
            defer { inbox = [] }
            return inbox
        }
        for command in commands {
            switch command {
            case .start(let transfer): transfer.finish(.failure(TransportFailure.shutDown("The curl transport")))
            case .run(let job): globalConcurrentExecutor.enqueue(ExecutorJob(job))
            case .cancel, .unpause, .shutdown: break
            }
        }
    }

    /// Blocks in `curl_multi_poll` for up to `milliseconds` (loop thread), unless a command is already
    /// queued.
    fileprivate func sleep(_ milliseconds: Int32) {
        loopSleeping.store(true, ordering: .sequentiallyConsistent)
        if !wakeupPending.load(ordering: .sequentiallyConsistent) {
            curl_multi_poll(multi.raw, nil, 0, milliseconds, nil)
        }
        // A submitter that still reads `true` sends a wake-up that is not needed, which is harmless.
        loopSleeping.store(false, ordering: .relaxed)
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
    /// The transport's TLS options as libcurl options, prepared once (files read) on this thread.
    let tls: CurlTLSSetup
    /// The handles in the multi handle, each knowing its index (``CurlEasyTransfer/activeSlot``):
    /// adding and removing one hashes nothing.
    ///
    /// This list, the idle one and ``headsReady`` are unchecked for overlapping access: the object
    /// never leaves the loop thread, and their mutations are the arrays' own (append, pop, replace,
    /// remove all), which call no code of ours that could reach them again; loops over them iterate
    /// a copy. Their run-time checks were most of the transport's per-request exclusivity checks.
    @exclusivity(unchecked) var active: [CurlEasyTransfer] = []
    /// Easy handles (each with its reusable transfer state) waiting for the next transfer.
    @exclusivity(unchecked) var idleHandles: [CurlEasyTransfer] = []
    var shuttingDown = false
    /// The earliest deadline among active transfers, or `nil`. libcurl does not time out a
    /// transfer still queued for a connection, so the loop enforces deadlines itself.
    var nearestDeadline: ContinuousClock.Instant?
    /// Transfers whose head completed during the current loop turn.
    @exclusivity(unchecked) var headsReady: [CurlEasyTransfer] = []
    /// The connections requests asked events about; every connection's closing callback points here,
    /// so it lives as long as the multi handle.
    let connections = CurlConnectionRegistry()
    /// How long the next idle moment busy-polls: ``CurlTransport/Configuration/busyPollDuration``
    /// while polling pays, shorter after polls that came back empty (see ``spinUntilSomethingArrives()``).
    var spinWindow: Duration

    init(loop: CurlEventLoop, multi: UnsafeMutableRawPointer, configuration: CurlTransport.Configuration) {
        self.loop = loop
        self.multi = multi
        self.configuration = configuration
        self.tls = CurlTLSSetup(configuration.tls)
        self.spinWindow = configuration.busyPollDuration
        active.reserveCapacity(64)
        headsReady.reserveCapacity(64)
    }

    func run() {
        var commands: [CurlEventLoop.Command] = []
        commands.reserveCapacity(64)
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
            if wait > 0, !(busy && spinUntilSomethingArrives()) { loop.sleep(wait) }
        }
    }

    /// Keeps polling, without sleeping, for up to ``spinWindow`` before the loop goes to sleep (unless
    /// more than ``CurlTransport/Configuration/busyPollMaxInFlight`` transfers are in flight). Returns
    /// `true` as soon as a command or socket event arrives.
    ///
    /// Sleeping in `curl_multi_poll` and being woken costs two context switches here and a wake-up
    /// system call in the task that submits the next command; on loopback and on virtual machines the
    /// next command or response usually arrives within tens of microseconds.
    ///
    /// The window adapts: a spin that comes back empty halves the next window (down to an eighth of
    /// the configured duration), so an idle transport stops burning CPU on it, and one that catches
    /// something restores it.
    private func spinUntilSomethingArrives() -> Bool {
        let maximum = configuration.busyPollDuration
        guard maximum > .zero, active.count <= configuration.busyPollMaxInFlight else { return false }
        let clock = ContinuousClock()
        let until = clock.now + spinWindow
        var numfds: Int32 = 0
        repeat {
            curl_multi_poll(multi, nil, 0, 0, &numfds)
            // Checked after the poll, which may have consumed a wake-up: a consumed wake-up always
            // has its flag set already, so it is seen here rather than lost before a long sleep.
            if numfds > 0 || loop.hasPendingWakeup {
                spinWindow = maximum
                return true
            }
        } while clock.now < until
        spinWindow = max(spinWindow / 2, maximum / 8)
        return false
    }

    // MARK: - Commands

    private func handle(_ command: CurlEventLoop.Command) {
        switch command {
        case .start(let transfer): start(transfer)
        case .cancel(let transfer): cancel(transfer)
        case .unpause(let transfer):
            if let easy = transfer.driver.easy {
                curl_easy_pause(easy.handle.raw, ccurl_pause_continue())
            }
        case .run(let job): job.runSynchronously(on: loop.asUnownedTaskExecutor())
        case .shutdown: shuttingDown = true
        }
    }

    private func start(_ transfer: CurlTransfer) {
        guard !transfer.isFinished else { return }  // cancelled before the loop saw it
        guard let easy = idleHandles.popLast() ?? makeEasyTransfer() else {
            transfer.finish(.failure(.transportFailed("libcurl could not create a transfer handle (out of memory?).")))
            return
        }
        do {
            try easy.begin(transfer)
        } catch {
            easy.end(cleanly: false)
            recycle(easy)
            transfer.finish(.failure(error))
            return
        }
        let code = curl_multi_add_handle(multi, easy.handle.raw)
        guard code == CURLM_OK else {
            easy.end(cleanly: false)
            recycle(easy)
            transfer.finish(.failure(.transportFailed("libcurl refused the transfer: \(String(cString: curl_multi_strerror(code))).")))
            return
        }
        easy.activeSlot = active.count
        active.append(easy)
        transfer.driver.easy = easy
        if let deadline = transfer.driver.context.deadline {
            nearestDeadline = min(nearestDeadline ?? deadline, deadline)
        }
    }

    private func makeEasyTransfer() -> CurlEasyTransfer? {
        guard let handle = CurlEasyHandle() else { return nil }
        return CurlEasyTransfer(handle: handle, configuration: configuration, tls: tls, connections: connections) {
            [unowned self] ready in
            headsReady.append(ready)
        }
    }

    /// Fails every transfer whose deadline has passed, wherever it is (queued or on the wire).
    /// Scans only when the nearest deadline is due, so the hot path stays O(1).
    private func expireOverdueTransfers() {
        guard let due = nearestDeadline else { return }
        let now = ContinuousClock.now
        guard now >= due else { return }
        nearestDeadline = nil
        for easy in active {  // the list as it was: `remove` changes `active`, not this copy
            guard let transfer = easy.transfer, let deadline = transfer.driver.context.deadline else { continue }
            if deadline <= now {
                remove(easy, cleanly: false)
                transfer.finish(.failure(.timedOut("It was still queued or in flight on the curl transport.")))
            } else {
                nearestDeadline = min(nearestDeadline ?? deadline, deadline)
            }
        }
    }

    /// Removes the transfer's handle: libcurl closes its connection, which the server sees.
    private func cancel(_ transfer: CurlTransfer) {
        guard let easy = transfer.driver.easy else { return }
        remove(easy, cleanly: false)
        transfer.finish(.failure(.cancelled))
    }

    /// Completes every transfer libcurl reports done; returns whether there was any.
    private func readFinishedTransfers() -> Bool {
        var remaining: Int32 = 0
        var any = false
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                let easy = Self.easyTransfer(of: raw)
            else { continue }
            let code = message.pointee.data.result
            easy.complete(with: code)  // reads timings and the error buffer before the handle is reused
            remove(easy, cleanly: true)  // `complete` marked a failed transfer for a reset already
            any = true
        }
        return any
    }

    /// The active handle's object, from libcurl's `CURLINFO_PRIVATE` (set by every reset); `nil` for
    /// a handle that is not one of this loop's.
    private static func easyTransfer(of raw: UnsafeMutableRawPointer) -> CurlEasyTransfer? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else { return nil }
        let easy = Unmanaged<CurlEasyTransfer>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
        return easy.activeSlot == nil ? nil : easy
    }

    private func remove(_ easy: CurlEasyTransfer, cleanly: Bool) {
        curl_multi_remove_handle(multi, easy.handle.raw)
        if let slot = easy.activeSlot {
            let last = active.removeLast()
            if last !== easy {
                active[slot] = last
                last.activeSlot = slot
            }
            easy.activeSlot = nil
        }
        easy.transfer?.driver.easy = nil
        easy.end(cleanly: cleanly)
        recycle(easy)
    }

    private func recycle(_ easy: CurlEasyTransfer) {
        if idleHandles.count < configuration.idleHandleLimit { idleHandles.append(easy) }
    }

    private func stop() {
        for easy in active {  // the list as it was: `remove` changes `active`, not this copy
            let transfer = easy.transfer
            remove(easy, cleanly: false)
            transfer?.finish(.failure(.transportFailed("The curl transport was shut down while the request was in flight.")))
        }
        idleHandles.removeAll()
        loop.markStopped()
        loop.failCommandsAfterStop()
        loop.finishStopping { curl_multi_cleanup(multi) }
    }
}
