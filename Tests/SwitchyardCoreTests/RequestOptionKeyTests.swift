import Switchyard
import SwitchyardTraffic
import Testing

/// A department's own option, declared the way a plugin declares one.
private enum RegionKey: RequestOptionKey {
    static let defaultValue = "eu"
}

extension RequestOptions {
    fileprivate var region: String {
        get { self[RegionKey.self] }
        set { self[RegionKey.self] = newValue }
    }
}

/// Typed per-request options: a plugin declares a key and a default, and reads what a caller set.
@Suite struct RequestOptionKeyTests {
    @Test func anUnsetOptionReadsItsDefault() {
        let options = RequestOptions()
        #expect(options.region == "eu")
        #expect(options.priority == .utility)
        #expect(options.retry == nil)
        #expect(!options.waitsForConnectivity)
    }

    @Test func aSetOptionIsReadBackAndTakesPartInEquality() {
        var options = RequestOptions()
        options.region = "us"
        #expect(options.region == "us")
        #expect(options != RequestOptions())

        var same = RequestOptions()
        same[RegionKey.self] = "us"
        #expect(options == same)
        #expect(options.hashValue == same.hashValue)

        same.region = "eu"
        #expect(options != same)
        #expect(same == RequestOptions(), "an option set to its default is the same as an unset one")
    }

    @Test func optionsOfDifferentKeysAreIndependent() {
        var options = RequestOptions()
        options.region = "us"
        options.priority = .background
        options.retry = .disabled
        #expect(options.region == "us")
        #expect(options.priority == .background)
        #expect(options.retry == .disabled)
        #expect(options.coalescing == .automatic)
    }
}
