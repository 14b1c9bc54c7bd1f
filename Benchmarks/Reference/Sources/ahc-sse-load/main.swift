// AsyncHTTPClient used directly for a server-sent event stream: the raw reference of
// Benchmarks/streams.sh. One request, the body streamed, events counted by hand (a blank line ends
// one; nothing is parsed beyond that) — the least a Swift client over AsyncHTTPClient does to read
// an event stream. Prints the JSON line of LoadShape's StreamMeter (count: events after the first). Configured as ahc-load is: HTTP/1.1, no decompression, NIO's shared loops.
//
//   ahc-sse-load URL EVENTS      (yard serve: URL = http://127.0.0.1:PORT/events/KEY?total=EVENTS)
import AsyncHTTPClient
import LoadShape
import NIOCore

let arguments = CommandLine.arguments
guard arguments.count == 3, let events = Int(arguments[2]), events > 0 else {
    fail("usage: \(arguments[0]) URL EVENTS", status: 64)
}
var configuration = HTTPClient.Configuration()
configuration.httpVersion = .http1Only
configuration.decompression = .disabled
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

var request = HTTPClientRequest(url: arguments[1])
request.headers.add(name: "Accept", value: "text/event-stream")
let response = try await client.execute(request, timeout: .seconds(300))
guard response.status == .ok else { fail("status \(response.status.code)") }
// Measured from the first event to the last, as `yard bench events` is (the server's time to its
// first byte left out).
var meter: StreamMeter?
var count = 0
var previous: UInt8 = 0
for try await chunk in response.body {
    chunk.withUnsafeReadableBytes { bytes in
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), previous == UInt8(ascii: "\n") {
                count += 1
                if count == 1 { meter = StreamMeter() }
            }
            previous = byte
        }
    }
    if count >= events { break }
}
print((meter ?? StreamMeter()).line(client: "ahc-sse-raw", count: max(min(count, events) - 1, 0), extra: [("total", "\(count)")]))
try await client.shutdown().get()
if count < events { fail("the stream ended after \(count) of \(events) events") }
