// A reference process for the memory figure of `make bench`: the Swift runtime and standard library
// alone, no Foundation at all.
//
// It counts a few words in a dictionary, prints READY and sleeps until killed. Built like hoorayd
// (release, --static-swift-stdlib), its resident set is the floor of any static Swift program. It
// only exists to be measured.
#if canImport(Glibc)
    import Glibc
#endif

/// Writes `text` to a file descriptor unbuffered: READY must reach a pipe at once.
func say(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    _ = write(descriptor, &bytes, bytes.count)
}

var counts: [String: Int] = [:]
for word in "a little work in the standard library only".split(separator: " ") {
    counts[String(word), default: 0] += 1
}
say("\(counts.count)\n", to: 2)
say("READY \(getpid())\n", to: 1)
while true { pause() }
