import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTransfers
import Testing

/// Downloads `/bytes/{count}` to `path` until the server has sent `at` bytes and they are in the
/// partial file, then drops the connection: an interruption at a known point, without timing (the
/// wait gives up only if the partial file stops growing short of `at`).
func interruptedDownload(
    _ client: Client, _ server: LoopbackServer, to path: String, count: Int, at offset: Int,
    tag: String, query: String = ""
) async throws {
    let download = client.download(
        try Request(method: .get, url: server.url("/bytes/\(count)?stall_at=\(offset)&tag=\(tag)\(query)")), to: path)
    download.start()
    #expect(await eventually(progressing: { fileSize(at: path + ".part") }) { fileSize(at: path + ".part") == offset })
    server.dropConnections(tag: tag)
    let error = await #expect(throws: SwitchyardError.self) { try await download.result() }
    #expect(error?.kind == .protocolViolation, "\(String(describing: error))")
    #expect(download.state.name == "failed")
}

@Suite(.timeLimit(.minutes(3))) struct DownloadTests {
    @Test(arguments: TransportKind.allCases)
    func downloadsToAFileWithProgress(kind: TransportKind) async throws {
        try await withAPI(kind) { api, server in
            let directory = try makeTemporaryDirectory()
            let path = directory + "/file.bin"
            let count = 4 << 20
            let download = api.client.download(try Request(method: .get, url: server.url("/bytes/\(count)")), to: path)
            let updates = collect(download.progress)
            let result = try await download.result()
            #expect(result.byteCount == Int64(count))
            #expect(result.resumedFrom == nil)
            #expect(try fileMatchesPattern(at: path, count: count))
            #expect(fileSize(at: path + ".part") == nil)
            #expect(fileSize(at: path + ".part.validator") == nil)
            let progress = await updates.value
            #expect(progress.last?.isFinal == true)
            #expect(progress.last?.completedBytes == Int64(count))
            #expect(progress.last?.expectedBytes == Int64(count))
            #expect(progress.filter(\.isFinal).count == 1)
            #expect(download.state.name == "succeeded")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anInterruptedDownloadResumesFromThePartialFile(kind: TransportKind) async throws {
        try await withAPI(kind) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let count = 8 << 20
            try await interruptedDownload(api.client, server, to: path, count: count, at: 3 << 20, tag: "resume")
            #expect(fileSize(at: path) == nil)
            let partial = try #require(fileSize(at: path + ".part"))
            #expect(partial == 3 << 20)

            let resumed = api.client.download(try Request(method: .get, url: server.url("/bytes/\(count)?tag=resume")), to: path)
            let result = try await resumed.result()
            #expect(result.resumedFrom == Int64(partial))
            #expect(result.head.status.code == 206)
            #expect(server.rangeHeaders(tag: "resume") == [nil, "bytes=\(partial)-"])
            #expect(try fileMatchesPattern(at: path, count: count))
            #expect(fileSize(at: path + ".part") == nil)
        }
    }

    @Test func aChangedResourceIsDownloadedWhole() async throws {
        try await withAPI(.curl) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let count = 2 << 20
            try await interruptedDownload(api.client, server, to: path, count: count, at: 1 << 20, tag: "v1")
            let changed = api.client.download(try Request(method: .get, url: server.url("/bytes/\(count)?version=2&tag=v2")), to: path)
            let result = try await changed.result()
            #expect(result.resumedFrom == nil)
            #expect(result.head.status.code == 200)
            #expect(server.rangeHeaders(tag: "v2") == ["bytes=\(1 << 20)-"])
            #expect(try fileMatchesPattern(at: path, count: count))
        }
    }

    @Test func aServerIgnoringRangesGivesAWholeDownload() async throws {
        try await withAPI(.curl) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let count = 2 << 20
            try await interruptedDownload(api.client, server, to: path, count: count, at: 100_000, tag: "first", query: "&ranges=ignore")
            let url = "/bytes/\(count)?ranges=ignore&tag=ignored"
            let result = try await api.client.download(try Request(method: .get, url: server.url(url)), to: path).result()
            #expect(server.rangeHeaders(tag: "ignored") == ["bytes=100000-"])
            #expect(result.resumedFrom == nil)
            #expect(try fileMatchesPattern(at: path, count: count))
        }
    }

    @Test func withoutResumingAnExistingPartialFileIsReplaced() async throws {
        try await withAPI(.curl) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let count = 1 << 20
            try await interruptedDownload(api.client, server, to: path, count: count, at: 1000, tag: "first")
            let fresh = api.client.download(
                try Request(method: .get, url: server.url("/bytes/\(count)?tag=fresh")), to: path,
                configuration: .init(resumesPartialFile: false))
            let result = try await fresh.result()
            #expect(result.resumedFrom == nil)
            #expect(server.rangeHeaders(tag: "fresh") == [nil])
            #expect(try fileMatchesPattern(at: path, count: count))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func pauseStopsTheExchangeAndResumeContinuesIt(kind: TransportKind) async throws {
        try await withAPI(kind) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let count = 8 << 20
            let stall = 3 << 20
            let download = api.client.download(
                try Request(method: .get, url: server.url("/bytes/\(count)?stall_at=\(stall)&tag=pause")), to: path)
            let updates = collect(download.progress)
            download.start()
            // The server stops sending at `stall`: the download is then certainly in the middle.
            #expect(await eventually(progressing: { fileSize(at: path + ".part") }) { fileSize(at: path + ".part") == stall })
            download.pause()
            #expect(download.state.name == "paused")
            #expect(await server.waitForDisconnect(tag: "pause", timeout: .seconds(60)))
            #expect(fileSize(at: path) == nil)

            download.resume()
            let result = try await download.result()
            #expect(result.resumedFrom == Int64(stall))
            #expect(server.rangeHeaders(tag: "pause") == [nil, "bytes=\(stall)-"])
            #expect(try fileMatchesPattern(at: path, count: count))
            let progress = await updates.value
            #expect(progress.last?.completedBytes == Int64(count))
            #expect(progress.last?.isFinal == true)
        }
    }

    @Test func statesShowPausedBetweenRunningAndCompleted() async throws {
        try await withAPI(.curl) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let download = api.client.download(
                try Request(method: .get, url: server.url("/bytes/\(1 << 20)?stall_at=1000")), to: path)
            let states = download.states  // subscribed now: it starts with notStarted
            let names = Task { await states.reduce(into: [String]()) { $0.append($1.name) } }
            download.start()
            #expect(await eventually { fileSize(at: path + ".part") == 1000 })
            download.pause()
            download.resume()
            _ = try await download.result()
            #expect(await names.value == ["notStarted", "running", "paused", "running", "succeeded"])
        }
    }

    @Test func cancelKeepsThePartialFile() async throws {
        try await withAPI(.curl) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let download = api.client.download(
                try Request(method: .get, url: server.url("/bytes/\(1 << 20)?stall_at=5000")), to: path)
            download.start()
            #expect(await eventually { fileSize(at: path + ".part") == 5000 })
            download.cancel()
            let error = await #expect(throws: SwitchyardError.self) { try await download.result() }
            #expect(error?.kind == .cancelled)
            #expect(download.state.name == "cancelled")
            #expect(fileSize(at: path + ".part") == 5000)
        }
    }

    @Test func aMatchingChecksumCompletesAndAWrongOneFails() async throws {
        try await withAPI(.curl) { api, server in
            let directory = try makeTemporaryDirectory()
            let count = 300_000
            let digest = sha256Hex((0..<count).map { UInt8($0 % 251) })
            let request = try Request(method: .get, url: server.url("/bytes/\(count)"))
            let good = try #require(DownloadChecksum(hex: digest) { SHA256ChecksumHasher() })
            _ = try await api.client.download(request, to: directory + "/good", configuration: .init(checksum: good)).result()
            #expect(try fileMatchesPattern(at: directory + "/good", count: count))

            let bad = DownloadChecksum(expected: [UInt8](repeating: 0, count: 32)) { SHA256ChecksumHasher() }
            let failing = api.client.download(request, to: directory + "/bad", configuration: .init(checksum: bad))
            let error = await #expect(throws: SwitchyardError.self) { try await failing.result() }
            #expect(error?.kind == .protocolViolation)
            #expect(error?.message.contains("checksum") == true)
            #expect(fileSize(at: directory + "/bad") == nil)
            #expect(fileSize(at: directory + "/bad.part") == nil)
        }
    }

    @Test func progressIsReadFromTheMainActor() async throws {
        try await withAPI(.curl) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let download = api.client.download(try Request(method: .get, url: server.url("/bytes/\(1 << 20)")), to: path)
            let progress = download.progress
            let reader = Task { @MainActor in
                var last: TransferProgress?
                for await update in progress {
                    MainActor.assertIsolated()
                    last = update
                }
                return last
            }
            download.start()
            let last = await reader.value
            #expect(last?.isFinal == true)
            #expect(last?.fractionCompleted == 1)
        }
    }

    @Test func anErrorStatusFailsTheDownload() async throws {
        try await withAPI(.curl) { api, server in
            let path = try makeTemporaryDirectory() + "/file.bin"
            let download = api.client.download(try Request(method: .get, url: server.url("/status/404")), to: path)
            let error = await #expect(throws: SwitchyardError.self) { try await download.result() }
            #expect(error?.kind == .httpStatus)
            #expect(fileSize(at: path) == nil)
        }
    }
}
