import Testing

@testable import SwitchyardTestServer

@Suite("BodyDigest")
struct BodyDigestTests {
    @Test func emptyInput() {
        #expect(BodyDigest.hexDigest(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(BodyDigest.hexDigest(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(BodyDigest.hexDigest(of: Array(message.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(BodyDigest.hexDigest(of: message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127, 1000])
    func streamingMatchesOneShot(pieceSize: Int) {
        let message = (0..<3001).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        var hasher = BodyDigest()
        var index = 0
        while index < message.count {
            let end = min(index + pieceSize, message.count)
            message[index..<end].withUnsafeBytes { hasher.update($0) }
            index = end
        }
        #expect(BodyDigest.hex(hasher.finalize()) == BodyDigest.hexDigest(of: message))
    }

    /// Digests of `"a" * length` from Python's `hashlib.sha256`, around the padding boundaries.
    @Test(arguments: [
        (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (1, "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"),
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c")
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(BodyDigest.hexDigest(of: message) == expected)
        var split = BodyDigest()
        split.update(message.prefix(length / 2))
        split.update(message.dropFirst(length / 2))
        #expect(BodyDigest.hex(split.finalize()) == expected)
    }
}

@Suite("Request target parsing")
struct RequestTargetTests {
    @Test func splitsPathAndQuery() {
        let target = RequestTarget(uri: "/redirect-to?location=http%3A%2F%2Fx%2Fa%3Fb%3D1&status=307&flag")
        #expect(target.path == "/redirect-to")
        #expect(target.value("location") == "http://x/a?b=1")
        #expect(target.value("status") == "307")
        #expect(target.value("flag") == "")
        #expect(target.value("missing") == nil)
        #expect(RequestTarget(uri: "/a/b").components == ["a", "b"])
        #expect(RequestTarget(uri: "/a/b").query == nil)
    }

    @Test func percentDecodingKeepsInvalidEscapes() {
        #expect(percentDecode("a%2")[...] == "a%2")
        #expect(percentDecode("%zz+%41") == "%zz+A")
    }
}
