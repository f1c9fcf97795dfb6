import Foundation
import HoorayCommandLine
import HoorayKit

/// The swaps plugin's commands: `hooray swap …`.
extension SwapsPlugin {
    public var commands: [CommandSpec] {
        let swapID = CommandSpec.Argument(
            name: "id", help: "The swap's id, or its first characters, as `hooray swap list` shows it.",
            completionCommand: ["swap", "list", "--ids"])
        return [
            CommandSpec(
                name: "log", summary: "Log tonight's healthy swap.",
                arguments: [
                    .init(
                        name: "text", help: "What you swapped, such as \"Sparkling water instead of soda\".",
                        isRepeating: true)
                ],
                options: [
                    .init(
                        name: "date", valueName: "day",
                        help: "The day it counts for: today (default), yesterday or YYYY-MM-DD; never a future day.")
                ],
                examples: [
                    "hooray swap \"Sparkling water instead of soda\"",
                    "hooray swap \"Fruit for dessert\" --date yesterday",
                ],
                aliases: ["swap"], offersJSON: true, noun: "your swap"),
            CommandSpec(
                name: "today",
                summary: "Today at a glance: the inspiration, last night's prep, tonight's swap and prep, the streak.",
                examples: ["hooray swap today", "hooray swap today --json"], aliases: ["swap today"], offersJSON: true,
                writes: false),
            CommandSpec(
                name: "inspire", summary: "Today's inspiration: one sentence, the same all day.",
                examples: ["hooray swap inspire"], aliases: ["swap inspire"], offersJSON: true, writes: false),
            CommandSpec(
                name: "prep", summary: "Prep tonight: up to three swaps for tomorrow.",
                arguments: [
                    .init(
                        name: "items", help: "Up to three swaps, each in quotes.", isOptional: true, isRepeating: true)
                ],
                examples: ["hooray swap prep \"Oatmeal instead of a pastry\" \"Walk after lunch\""],
                aliases: ["swap prep"], offersJSON: true, noun: "your prep"),
            CommandSpec(
                name: "prep-remove", summary: "Take one item out of tonight's prep, by its number or its words.",
                arguments: [
                    .init(
                        name: "item",
                        help: "The item's number, as `hooray swap prep` shows it, or its words in quotes.")
                ],
                examples: ["hooray swap prep remove 2", "hooray swap prep remove \"Walk after lunch\""],
                aliases: ["swap prep remove"], offersJSON: true, noun: "your prep"),
            CommandSpec(
                name: "list", summary: "Your swaps with their ids, newest first.",
                options: [
                    .init(
                        name: "days", valueName: "n",
                        help: "How many days back, today included (default 28; 1 to 3650).")
                ],
                flags: [.init(name: "ids", help: "Print only the ids, one a line.")],
                examples: ["hooray swap list", "hooray swap list --days 7 --json"], aliases: ["swap list"],
                offersJSON: true, writes: false),
            CommandSpec(
                name: "edit", summary: "Fix a swap: its words, its day, or both.",
                discussion: "What you leave out stays as it is. The streak follows the swaps as they are now.",
                arguments: [
                    swapID,
                    .init(name: "text", help: "The swap's new words.", isOptional: true, isRepeating: true),
                ],
                options: [
                    .init(
                        name: "date", valueName: "day",
                        help: "Move it to this day: today, yesterday or YYYY-MM-DD; never a future day.")
                ],
                examples: [
                    "hooray swap edit 3f2a9c1e \"Tea instead of wine\"", "hooray swap edit 3f2a --date yesterday",
                ],
                aliases: ["swap edit"], offersJSON: true, noun: "your change"),
            CommandSpec(
                name: "delete",
                summary: "Delete a swap (asks first on a terminal); it no longer counts toward your streak.",
                arguments: [swapID], examples: ["hooray swap delete 3f2a9c1e"], aliases: ["swap delete"],
                offersJSON: true, confirmation: "Delete the swap {id}? It no longer counts toward your streak."),
            CommandSpec(
                name: "need-help", summary: "I need help: your top three swaps and a 90-second calm breathing guide.",
                discussion:
                    "On a terminal the guide shows each step (breathe in 4 s, hold 4 s, breathe out 7 s, six rounds) "
                    + "with a bar that fills as you go. Ctrl-C ends it whenever you like, and the command still "
                    + "exits 0. Without a terminal, or with --no-animation, the steps are printed instead.",
                flags: [.init(name: "no-animation", help: "Print the breathing steps instead of guiding them.")],
                examples: ["hooray swap help", "hooray swap help --no-animation"], aliases: ["swap help"],
                writes: false),
            CommandSpec(
                name: "tutorial", summary: "Three short steps: Morning Focus, I Need Help, Night Prep.",
                examples: ["hooray swap tutorial"], aliases: ["swap tutorial"], writes: false),
            CommandSpec(
                name: "history", summary: "A calendar of the days you swapped, totals and streaks.",
                options: [.init(name: "days", valueName: "n", help: "How many days back (default 28).")],
                examples: ["hooray swap history", "hooray swap history --days 60 --json"],
                aliases: ["swap history"], offersJSON: true, writes: false),
        ] + Self.coachCommands + [WeekReview.commandSpec]
    }
}
