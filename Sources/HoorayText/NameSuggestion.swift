/// Finds what a misspelt name was probably meant to be, for "did you mean `title`?" hints.
public enum NameSuggestion {
    /// The candidate closest to `name`, when one is close enough to be a likely typo.
    ///
    /// Names are compared without regard to case, by the number of single-character insertions,
    /// deletions, substitutions and swaps of neighbours needed to turn one into the other
    /// (`tittle` → `title` is one). Short names may differ by one edit, longer ones by up to three.
    /// Among equally close candidates the first wins.
    /// - Parameters:
    ///   - name: The unknown name, as written.
    ///   - candidates: The names that would have been understood.
    /// - Returns: The closest candidate, or `nil` when none is close or `name` is itself a candidate.
    public static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        var loweredName: String?
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            if candidate == name { return nil }
            // Three edits change the length by twelve bytes at most: a far longer or shorter name
            // (a 10 MB key) is no typo, and is not compared character by character.
            guard abs(name.utf8.count - candidate.utf8.count) <= 12 else { continue }
            let lowered = loweredName ?? name.lowercased()
            loweredName = lowered
            let distance = editDistance(lowered, candidate.lowercased())
            let allowed = max(1, min(3, max(candidate.count, name.count) / 4))
            guard distance <= allowed else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The optimal string alignment distance between two strings: insertions, deletions,
    /// substitutions and swaps of adjacent characters each count as one.
    ///
    /// - Parameters:
    ///   - first: One string.
    ///   - second: The other string.
    /// - Returns: The number of edits; 0 when the strings are equal.
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows suffice: the swap rule looks back two rows.
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
