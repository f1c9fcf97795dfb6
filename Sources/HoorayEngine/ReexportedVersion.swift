// `HoorayVersion` and `HostWords` live in a module of their own, which the `hooray` front door links
// without Foundation.
@_exported import HoorayBasics
