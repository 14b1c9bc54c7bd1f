import Switchyard
import SwitchyardStreams
import Testing

/// The event-stream interpretation of the WHATWG HTML standard, fed as bytes arrive.
struct EventStreamParserTests {
    private func events(_ chunks: String..., maximumEventBytes: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = EventStreamParser(maximumEventBytes: maximumEventBytes)
        return try chunks.flatMap { chunk throws(SwitchyardError) in try parser.feed(Array(chunk.utf8)) }
    }

    @Test func dataLinesAreJoinedAndTheTypeDefaultsToMessage() throws {
        #expect(try events("data: first\ndata: second\n\n") == [ServerSentEvent(data: "first\nsecond")])
        #expect(try events("data\ndata\n\n") == [ServerSentEvent(data: "\n")], "an empty data field adds an empty line")
        #expect(
            try events("event: update\ndata: x\n\ndata: y\n\n") == [
                ServerSentEvent(type: "update", data: "x"), ServerSentEvent(data: "y")
            ])
    }

    @Test func oneSpaceAfterTheColonIsRemovedAndCommentsAndUnknownFieldsAreIgnored() throws {
        #expect(try events(": keep-alive\ndata:  two spaces\nfoo: bar\ndata:none\n\n") == [ServerSentEvent(data: " two spaces\nnone")])
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIDCounts() throws {
        #expect(try events("id: 7\n\ndata: x\n\n") == [ServerSentEvent(data: "x", lastEventID: "7")])
        #expect(try events("event: lonely\n\n").isEmpty)
    }

    @Test func theLastEventIDPersistsAndAnIDWithNULIsIgnored() throws {
        let parsed = try events("id: 1\ndata: a\n\ndata: b\n\nid: 2\u{0}x\ndata: c\n\nid\ndata: d\n\n")
        #expect(parsed.map(\.lastEventID) == ["1", "1", "1", ""], "an empty id resets it to the empty string")
    }

    @Test func retryTakesOnlyDigits() throws {
        var parser = EventStreamParser()
        _ = try parser.feed(Array("retry: 2500\n\nretry: 10a\n\nretry: -1\n\n".utf8))
        #expect(parser.retryMilliseconds == 2_500)
    }

    @Test func crLfAndCrlfAllEndLinesEvenAcrossChunks() throws {
        #expect(try events("data: a\rdata: b\r\n\r\n") == [ServerSentEvent(data: "a\nb")])
        #expect(try events("data: a\r", "\ndata: b\r", "\r") == [ServerSentEvent(data: "a\nb")])
        #expect(try events("data: a\n\r\n") == [ServerSentEvent(data: "a")])
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStartEvenWhenSplit() throws {
        var parser = EventStreamParser()
        var parsed = try parser.feed([0xEF])
        parsed += try parser.feed([0xBB])
        parsed += try parser.feed([0xBF] + Array("data: x\n\n".utf8))
        #expect(parsed == [ServerSentEvent(data: "x")])
        let again = try parser.feed([0xEF, 0xBB, 0xBF] + Array("data: y\n\n".utf8))
        #expect(again.isEmpty, "a later BOM is part of a field name, which is unknown")
        #expect(try events("\u{FEFF}data: z\n\n") == [ServerSentEvent(data: "z")])
        #expect(try events("\u{EF}") == [], "held back until it is known not to be a BOM")
    }

    @Test func anEventCutByTheEndOfAConnectionIsNeverDelivered() throws {
        var parser = EventStreamParser()
        #expect(try parser.feed(Array("id: 1\ndata: whole\n\nid: 2\ndata: tor".utf8)).map(\.data) == ["whole"])
        #expect(parser.lastEventID == "1", "the cut event's id line arrived but its event did not")
        parser.startStream()
        #expect(try parser.feed(Array("data: next\n\n".utf8)) == [ServerSentEvent(data: "next", lastEventID: "1")])
    }

    @Test func anEventOverTheLimitIsATypedErrorWhileCommentsDoNotAddUp() throws {
        #expect {
            try events("data: " + String(repeating: "x", count: 200) + "\n\n", maximumEventBytes: 100)
        } throws: { ($0 as? SwitchyardError)?.kind == .eventTooLarge }
        #expect {
            try events(
                "data: " + String(repeating: "x", count: 60) + "\n", "data: " + String(repeating: "y", count: 60) + "\n\n",
                maximumEventBytes: 100)
        } throws: { ($0 as? SwitchyardError)?.kind == .eventTooLarge }
        let keepAlives = String(repeating: ": ping\n", count: 1_000) + "data: ok\n\n"
        #expect(try events(keepAlives, maximumEventBytes: 100) == [ServerSentEvent(data: "ok")])
    }

    @Test func byteByByteGivesWhatOneChunkGives() throws {
        let stream = "\u{FEFF}: hi\r\nid: 9\r\nevent: tick\r\ndata: 1\r\ndata: 2\r\n\r\nretry: 5\n\ndata: é\n\n"
        var whole = EventStreamParser()
        let expected = try whole.feed(Array(stream.utf8))
        var single = EventStreamParser()
        var parsed: [ServerSentEvent] = []
        for byte in stream.utf8 { parsed += try single.feed([byte]) }
        #expect(parsed == expected)
        #expect(expected == [ServerSentEvent(type: "tick", data: "1\n2", lastEventID: "9"), ServerSentEvent(data: "é", lastEventID: "9")])
    }
}

/// The wait before reconnecting.
struct ReconnectionDelayTests {
    @Test func theServersRetryIsUsedThenDoubledAndCapped() {
        let options = EventStreamOptions(reconnectionDelay: .seconds(3), maximumReconnectionDelay: .seconds(60))
        #expect(options.delay(afterFailures: 1, retryMilliseconds: nil) == .seconds(3))
        #expect(options.delay(afterFailures: 1, retryMilliseconds: 250) == .milliseconds(250), "retry: is honoured")
        #expect(options.delay(afterFailures: 3, retryMilliseconds: 250) == .milliseconds(1_000))
        #expect(options.delay(afterFailures: 10, retryMilliseconds: 250) == .seconds(60))
        #expect(options.delay(afterFailures: 1, retryMilliseconds: Int.max) == .seconds(60), "a huge retry: is capped")
        #expect(options.delay(afterFailures: 1_000, retryMilliseconds: nil) == .seconds(60))
    }
}
