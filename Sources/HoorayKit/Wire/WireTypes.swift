import HoorayClient

// A JSON value on the wire between `hooray` and `hoorayd` is HoorayClient's (one type per shape,
// checked against docs/protocol.md there); the plugin API names the same type, so a plugin writes
// `JSONValue` and never imports HoorayClient.

/// A JSON value: what a command replies with `--json`, and what a reminder or an action carries.
public typealias JSONValue = HoorayClient.JSONValue
