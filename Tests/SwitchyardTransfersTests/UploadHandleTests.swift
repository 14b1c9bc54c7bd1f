import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTransfers
import Testing

/// `{"length":N,"sha256":"…"}`: what the loopback upload targets answer.
private struct DigestAnswer: Decodable, Equatable {
    var length: Int
    var sha256: String
}

private func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

/// The names of an upload's states from now until its final state.
private func collectStateNames(_ upload: Upload) -> Task<[String], Never> {
    let states = upload.states
    return Task {
        var names: [String] = []
        for await state in states where names.last != state.name { names.append(state.name) }
        return names
    }
}

private func answer(_ result: UploadResult) throws -> DigestAnswer {
    try JSONDecoder().decode(DigestAnswer.self, from: Data(result.body))
}

@Suite(.timeLimit(.minutes(3))) struct UploadHandleTests {
    @Test(arguments: TransportKind.allCases)
    func aWholeUploadCreatesAnUploadResourceAndAppendsOnce(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let bytes = pattern(3 << 20)
            let upload = client.upload(try Request(method: .post, url: server.url("/resumable/whole-\(kind)")), from: HTTPBody(bytes))
            let names = collectStateNames(upload)
            let updates = collect(upload.progress)
            let result = try await upload.result()
            #expect(try answer(result) == DigestAnswer(length: bytes.count, sha256: sha256Hex(bytes)))
            #expect(result.head.headerFields[HTTPField.Name("Upload-Complete")!] == "?1")
            #expect(result.uploadResource?.contains("/resumable/whole-\(kind)/uploads/") == true)
            #expect(result.resumedFrom.isEmpty)
            #expect(result.byteCount == Int64(bytes.count))
            let figures = try #require(server.resumableUploads(key: "whole-\(kind)").first)
            #expect(figures.storedBytes == bytes.count)
            #expect(figures.receivedBytes == bytes.count)
            #expect(figures.isComplete)
            #expect(await names.value == ["notStarted", "running", "succeeded"])
            let seen = await updates.value
            #expect(seen.last?.isFinal == true)
            #expect(seen.last?.completedBytes == Int64(bytes.count))
            #expect(seen.allSatisfy { $0.expectedBytes == Int64(bytes.count) })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func pauseThenResumeContinuesFromTheServersOffset(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let count = 8 << 20
            let path = try makeTemporaryDirectory() + "/paused-upload.bin"
            try writePatternFile(at: path, count: count)
            let key = "pause-\(kind)"
            let upload = try client.upload(
                try Request(method: .post, url: server.url("/resumable/\(key)?hold_at=\(1 << 20)")), fromFile: path)
            let names = collectStateNames(upload)
            let updates = collect(upload.progress)
            upload.start()
            // The server has stored at least 1 MiB and stopped reading: pause there.
            #expect(await eventually { server.resumableUploads(key: key).first?.isHolding == true })
            upload.pause()
            guard case .paused(let sentBeforePause) = upload.state else {
                Issue.record("expected paused, got \(upload.state)")
                return
            }
            upload.resume()
            let result = try await upload.result()

            let figures = try #require(server.resumableUploads(key: key).first)
            #expect(result.resumedFrom.count == 1)
            #expect(result.resumedFrom == figures.offsetsReported.map(Int64.init))
            let offset = try #require(result.resumedFrom.first)
            #expect(offset >= 1 << 20)
            #expect(offset < Int64(count))
            #expect(sentBeforePause <= Int64(count))
            // Every byte stored exactly once, in order.
            #expect(figures.storedBytes == count)
            #expect(figures.sha256 == sha256Hex(pattern(count)))
            #expect(figures.isComplete)
            #expect(try answer(result) == DigestAnswer(length: count, sha256: figures.sha256))
            #expect(await names.value == ["notStarted", "running", "paused", "running", "succeeded"])
            // Progress continues from the server's offset and ends with every byte.
            let seen = await updates.value
            #expect(seen.contains { $0.completedBytes == offset })
            #expect(seen.last?.completedBytes == Int64(count))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anInterruptedAppendResumesByItself(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let bytes = pattern(4 << 20)
            let key = "cut-\(kind)"
            let upload = client.upload(
                try Request(method: .put, url: server.url("/resumable/\(key)?cut_at=\(1 << 20)")), from: HTTPBody(bytes))
            let result = try await upload.result()
            let figures = try #require(server.resumableUploads(key: key).first)
            #expect(result.resumedFrom.count == 1)
            #expect((result.resumedFrom.first ?? 0) >= 1 << 20)
            #expect(figures.storedBytes == bytes.count)
            #expect(figures.sha256 == sha256Hex(bytes))
            #expect(try answer(result).sha256 == sha256Hex(bytes))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancelEndsTheUploadAndDeletesItsResource(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let key = "cancel-\(kind)"
            let upload = client.upload(
                try Request(method: .post, url: server.url("/resumable/\(key)?hold_at=\(256 << 10)")), from: HTTPBody(pattern(4 << 20)))
            upload.start()
            #expect(await eventually { server.resumableUploads(key: key).first?.isHolding == true })
            upload.cancel()
            guard case .cancelled = upload.state else {
                Issue.record("expected cancelled, got \(upload.state)")
                return
            }
            let error = await #expect(throws: SwitchyardError.self) { try await upload.result() }
            #expect(error?.kind == .cancelled)
            #expect(await eventually { server.resumableUploads(key: key).first?.isDeleted == true })
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aServerWithoutResumptionRestartsAReplayableBodyFromZero(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let bytes = pattern(2 << 20)
            let key = "plain-\(kind)"
            let upload = client.upload(try Request(method: .post, url: server.url("/upload/sink/\(key)?hold=1")), from: HTTPBody(bytes))
            let names = collectStateNames(upload)
            upload.start()
            #expect(await eventually { server.gate(key: "sink-\(key)").held == 1 })
            upload.pause()
            server.release(key: "sink-\(key)")
            upload.resume()
            let result = try await upload.result()
            #expect(result.uploadResource == nil)
            #expect(result.restarts == 1)
            #expect(result.resumedFrom.isEmpty)
            #expect(try answer(result) == DigestAnswer(length: bytes.count, sha256: sha256Hex(bytes)))
            #expect(await names.value == ["notStarted", "running", "paused", "running", "succeeded"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSingleUseBodyCannotRestartOnAServerWithoutResumption(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let key = "single-\(kind)"
            let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
                for index in 0..<32 { continuation.yield(ArraySlice(pattern(64 << 10).map { $0 &+ UInt8(index) })) }
                continuation.finish()
            }
            let upload = client.upload(
                try Request(method: .post, url: server.url("/upload/sink/\(key)?hold=1")), from: HTTPBody(stream, length: .known(2 << 20)))
            upload.start()
            #expect(await eventually { server.gate(key: "sink-\(key)").held == 1 })
            upload.pause()
            server.release(key: "sink-\(key)")
            upload.resume()
            let error = await #expect(throws: SwitchyardError.self) { try await upload.result() }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains("single-use") == true)
            #expect(upload.state.name == "failed")
        }
    }

    /// The server cuts the first append at 1 MiB; the upload continues by itself from the server's
    /// offset, out of the bytes it kept of the stream (at most 3 MiB were read past that offset,
    /// well within the 8 MiB kept), and the stream is read once.
    @Test(arguments: TransportKind.allCases)
    func aSingleUseBodyResumesFromTheBytesItKept(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let key = "stream-\(kind)"
            let bytes = pattern(4 << 20)
            let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
                for start in stride(from: 0, to: bytes.count, by: 64 << 10) { continuation.yield(bytes[start..<(start + (64 << 10))]) }
                continuation.finish()
            }
            let upload = client.upload(
                try Request(method: .put, url: server.url("/resumable/\(key)?cut_at=\(1 << 20)")),
                from: HTTPBody(stream, length: .known(Int64(bytes.count))))
            let result = try await upload.result()
            let figures = try #require(server.resumableUploads(key: key).first)
            #expect(result.resumedFrom.count == 1)
            #expect((result.resumedFrom.first ?? 0) >= 1 << 20)
            #expect((result.resumedFrom.first ?? 0) < Int64(bytes.count))
            // Every byte stored exactly once, in order.
            #expect(figures.storedBytes == bytes.count)
            #expect(figures.sha256 == sha256Hex(bytes))
            #expect(try answer(result) == DigestAnswer(length: bytes.count, sha256: sha256Hex(bytes)))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func resumptionCanBeTurnedOff(kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let bytes = pattern(100_000)
            let upload = client.upload(
                try Request(method: .post, url: server.url("/resumable/off-\(kind)")), from: HTTPBody(bytes),
                configuration: Upload.Configuration(resumption: .disabled))
            let result = try await upload.result()
            #expect(result.uploadResource == nil)
            #expect(try answer(result) == DigestAnswer(length: bytes.count, sha256: sha256Hex(bytes)))
            #expect(server.resumableUploads(key: "off-\(kind)").isEmpty)
        }
    }
}
