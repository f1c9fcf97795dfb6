import Foundation
import HoorayAI
import HoorayClient
import HoorayCommandLine
import HoorayEngine
import HoorayIdentity
import HoorayKit
import HoorayTerminal
import Logging
import ReviewPlugin

/// With an AI service in the `[ai]` section, one paragraph of reflection on the week, written from
/// the review's figures only: the areas, their labels and numbers. The user's own words — the wins
/// that stood out — go with them only when `[plugins.review] share_notes = true`.
enum WeekReflection {
    /// What the service is asked to be.
    static let prompt = """
        You are Hooray, a warm and gentle companion. You are given the figures of the user's week beside \
        the week before: wins logged, habit days done, swaps, rejections they bounced back from, \
        challenges. Write one short paragraph (three or four sentences, under 90 words) of kind \
        reflection on the week, speaking to them as "you": notice what went well, treat a quieter \
        figure gently, never shame, never compare them with anyone, never give tasks. Plain text only: \
        no markdown, no lists, no headings.
        """

    /// The figures as the service is told them, and the highlights only when `shareWords`.
    static func message(_ report: WeekReport, shareWords: Bool) -> String {
        var lines = [
            "The week \(report.week) (\(report.week.monday) to \(report.week.sunday))"
                + (report.isComplete ? ":" : ", so far:")
        ]
        for area in report.shownAreas {
            let figures = area.figures.map { figure in
                let last =
                    figure.lastWeek.map { ", last week \(WeekReview.Figure.shown($0, of: figure.lastOutOf))" } ?? ""
                return "\(figure.label): \(WeekReview.Figure.shown(figure.thisWeek, of: figure.outOf))\(last)"
            }
            lines.append("\(area.area): " + figures.joined(separator: "; ") + ".")
            if shareWords && !area.highlights.isEmpty {
                lines.append("  In their words: " + area.highlights.map { "“\($0)”" }.joined(separator: ", ") + ".")
            }
        }
        if report.shownAreas.isEmpty { lines.append("Nothing was logged this week or the week before.") }
        return lines.joined(separator: "\n")
    }

    /// Asks for the paragraph; `nil` with a warning when AI is off or the service does not give one.
    static func ask(_ report: WeekReport, loaded: DaemonConfiguration, paths: HoorayPaths) async -> String? {
        let ai = loaded.ai
        guard !loaded.aiSectionIgnored, CurlChatProvider.canChat(ai) else { return nil }
        let review = loaded.setups.first { $0.plugin.name == "review" }?.configuration as? ReviewConfiguration
        var logger = Logger(label: "ai")
        logger.logLevel = .critical
        let provider = IdentityResolvingPraiseProvider(
            configuration: ai, vault: IdentityVault(store: loaded.identityStore, paths: paths), logger: logger)
        let messages = [
            ChatMessage(role: .system, content: prompt),
            ChatMessage(role: .user, content: message(report, shareWords: review?.shareNotes ?? false)),
        ]
        var text = ""
        do {
            for try await piece in provider.chat(messages) { text += piece }
        } catch {
            warn("hooray review: no reflection from the AI service: \(error). The figures are all there.")
            return nil
        }
        let paragraph = PraiseText.sanitized(text, limit: 900)
        return paragraph.isEmpty ? nil : paragraph
    }
}
