import Foundation

/// A plugin's part of the status-bar line that `hooray bar` prints, such as today's count of
/// something the user logged, or how many habits are done today.
///
/// The host builds one line from the next reminder and every plugin's items: each item's
/// ``text`` goes on the line, its ``tooltip`` becomes a line of the tooltip, the best ``streak``
/// of all items is shown once, and the ``progress`` of all items is added up into the bar's
/// percentage. Keep ``text`` to a few characters — a bar is narrow — and never shame: a zero is
/// just a zero.
///
/// ```swift
/// BarItem(text: "✅ 1/2", tooltip: "1 of 2 habits done today", progress: BarProgress(done: 1, due: 2))
/// ```
public struct BarItem: Sendable, Hashable, Codable {
    /// The short text for the line, such as `🏆 2`; empty to put nothing on the line (an item that
    /// only offers a ``streak``).
    public var text: String
    /// One line for the tooltip, such as `2 logged today`; empty for none.
    public var tooltip: String
    /// A current streak the host may show, when it is the best of all items'.
    public var streak: BarStreak?
    /// Progress the host adds up across items into the bar's percentage.
    public var progress: BarProgress?

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - text: The short text for the line; empty for none.
    ///   - tooltip: One line for the tooltip; empty for none.
    ///   - streak: A current streak, if the plugin has one.
    ///   - progress: What is done of what is due today, if the plugin counts that.
    public init(text: String, tooltip: String = "", streak: BarStreak? = nil, progress: BarProgress? = nil) {
        self.text = text
        self.tooltip = tooltip
        self.streak = streak
        self.progress = progress
    }
}

/// A current streak shown in the status bar: how many days, and of what.
public struct BarStreak: Sendable, Hashable, Codable {
    /// The streak's length in days.
    public var days: Int
    /// What the streak is of, such as a habit's name, for the tooltip.
    public var name: String

    /// Creates a streak.
    ///
    /// - Parameters:
    ///   - days: The streak's length in days.
    ///   - name: What the streak is of, such as a habit's name.
    public init(days: Int, name: String) {
        self.days = days
        self.name = name
    }
}

/// How much of what is due today is done, for the status bar's percentage.
public struct BarProgress: Sendable, Hashable, Codable {
    /// How many are done today.
    public var done: Int
    /// How many are due today.
    public var due: Int

    /// Creates progress.
    ///
    /// - Parameters:
    ///   - done: How many are done today.
    ///   - due: How many are due today.
    public init(done: Int, due: Int) {
        self.done = done
        self.due = due
    }
}
