// `JSONValue` is part of this module's API (envelope codes, JSON page items): an app that imports
// SwitchyardAPI uses it without importing SwitchyardJSON too.
@_exported public import SwitchyardJSON
