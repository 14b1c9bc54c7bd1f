import SwitchyardCore

extension ResponseDecoding {
    /// A page of `Item`s read by `layout` in one pass over the JSON: the items (`null` is an empty
    /// page; an absent items path is a decoding error naming it), and the has-next flag, total,
    /// next cursor and page size where the layout has paths for them (absent or `null`: unknown; a
    /// wrong type: a decoding error). The layout's `id` path is not used: typed items have their
    /// own identity. With `skippingInvalidElements`, an item that fails to decode is left out of the
    /// page and listed in the call's ``DecodingReport`` (``Page/decodingReport``) instead of failing it.
    /// - Parameters:
    ///   - layout: Where the page's parts sit.
    ///   - decoding: The decoder settings.
    ///   - skippingInvalidElements: Whether a bad item is skipped rather than failing the page.
    /// - Returns: The decoding.
    public static func page<Item: Decodable & Sendable>(
        _ layout: JSONPageLayout, using decoding: JSONDecoding = .standard, skippingInvalidElements: Bool = false
    ) -> Self where Value == Page<Item> {
        Self(accepts: .json, emptyBodyValue: { .empty }) { body, envelope throws(SwitchyardError) in
            let plan = DecodingPlan(
                path: JSONPath(segments: []), envelope: envelope, page: layout, skipsInvalidItems: skippingInvalidElements)
            let root = try decoding.decodeRoot(PageRoot<Item>.self, from: body, plan: plan)
            if let failure = root.failure { throw .api(failure) }
            return root.value?.page ?? .empty
        }
    }
}

/// The parts of a page, read where a ``JSONPageLayout`` says they are.
struct PageRoot<Item: Decodable & Sendable>: Decodable {
    var page: Page<Item>

    init(from decoder: any Decoder) throws {
        let plan = decoder.userInfo[DecodingPlan.userInfoKey] as? DecodingPlan
        guard let layout = plan?.page else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "No page layout."))
        }
        // An absent or null paging field is unknown (the has-next rule falls back); a wrong type is an error.
        func optional<T: Decodable>(_ type: T.Type, at path: JSONPath?) throws -> T? {
            guard let path else { return nil }
            do {
                return try PathDecoding.decode(T?.self, at: path.segments[...], from: decoder)
            } catch DecodingError.keyNotFound, DecodingError.valueNotFound {
                return nil
            }
        }
        let items =
            plan?.skipsInvalidItems == true
            ? try PathDecoding.decode(LossyElements<Item>?.self, at: layout.items.segments[...], from: decoder)?.elements ?? []
            : try PathDecoding.decode([Item]?.self, at: layout.items.segments[...], from: decoder) ?? []
        page = Page(
            items: items, hasNext: try optional(Bool.self, at: layout.hasNext),
            total: try optional(Int.self, at: layout.total),
            nextCursor: try optional(String.self, at: layout.nextCursor),
            pageSize: try optional(Int.self, at: layout.pageSize))
    }
}
