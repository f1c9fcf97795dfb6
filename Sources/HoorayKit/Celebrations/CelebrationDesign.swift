// How each style turns a celebration into a notice lives here, in one place, so that the daemon,
// the CLI and HoorayKitTesting's fakes celebrate alike.
extension CelebrationStyle {
    /// The notice a celebration gets in this style, or `nil` for ``off``.
    ///
    /// - ``calm``: the celebration's title; the phrase (and the detail on a line of its own) as the
    ///   body; low urgency; no sound; the server's usual time on screen for a small one, 10 seconds
    ///   for a big one, so that a milestone stays a little longer.
    /// - ``playful``: the title behind `✨` (small) or `🎉` (big); the phrase framed in sparkles
    ///   (small) or confetti and sparkles (big); normal urgency; the freedesktop.org sound
    ///   `complete`; 10 (small) or 15 seconds (big) on screen. The sound theme has no sound meant
    ///   for a party, so big celebrations use `complete` too and stand out by their copy and time.
    /// - ``off``: no notice.
    ///
    /// The notice's category is the size's ``Celebration/Size/noticeCategory``.
    ///
    /// - Parameters:
    ///   - celebration: What to celebrate.
    ///   - phrase: The encouraging phrase picked for it.
    /// - Returns: The notice to post; `nil` when the style is ``off``.
    package func notice(for celebration: Celebration, phrase: String) -> Notice? {
        let category = celebration.size.noticeCategory
        let detail = celebration.detail.map { "\n" + $0 } ?? ""
        switch self {
        case .calm:
            return Notice(
                title: celebration.title, body: phrase + detail, urgency: .low, category: category,
                timeout: celebration.size == .big ? .milliseconds(10_000) : .serverDefault, sound: .silent)
        case .playful:
            let big = celebration.size == .big
            let framed = big ? "🎊✨ \(phrase) ✨🎊" : "✨ \(phrase) ✨"
            return Notice(
                title: (big ? "🎉 " : "✨ ") + celebration.title, body: framed + detail, urgency: .normal,
                category: category, timeout: .milliseconds(big ? 15_000 : 10_000), sound: .named("complete"))
        case .off:
            return nil
        }
    }

    /// The one line a command may print for a celebration in this style.
    ///
    /// With a notice, the title and the phrase, such as `✓ Read 10 pages · 7 days — Nice choice.`
    /// (`🎉 …` or `✨ …` when playful). In the ``off`` style, which posts nothing, the title and the
    /// detail: `✓ Read 10 pages · 7 days — Your longest run yet.`
    ///
    /// - Parameters:
    ///   - celebration: What was celebrated.
    ///   - phrase: The phrase picked for it; unused in the ``off`` style.
    package func line(for celebration: Celebration, phrase: String) -> String {
        switch self {
        case .calm:
            return "✓ \(celebration.title) — \(phrase)"
        case .playful:
            return (celebration.size == .big ? "🎉 " : "✨ ") + "\(celebration.title) — \(phrase)"
        case .off:
            return "✓ \(celebration.title)" + (celebration.detail.map { " — \($0)" } ?? "")
        }
    }
}

extension Celebration.Size {
    /// The category of a celebration's notice: `hooray.celebration` for small ones,
    /// `hooray.celebration.big` for big ones.
    package var noticeCategory: String {
        switch self {
        case .small: "hooray.celebration"
        case .big: "hooray.celebration.big"
        }
    }
}
