import HoorayTOML
import Testing

/// Edits change only the text they concern: what a user sees with `git diff` after
/// `hooray config set`.
@Suite struct EditingTests {
    static let commented = """
        # My Hooray settings.

        [delivery]
        icon = "hooray"   # the bell

        # Swaps: evening prep.
        [plugins.swaps]
        night_prep = "21:00"           # "Prep tonight"; "off" for none
        morning_focus = "08:00"

        [plugins.habits]
        enabled = true

        """

    func edited(_ text: String, _ edit: (inout TOMLDocument) throws(TOMLEditError) -> Void) throws -> String {
        var document = TOMLDocument(parsing: text)
        try edit(&document)
        #expect(document.diagnostics.isEmpty)
        return document.text
    }

    func changedLines(_ before: String, _ after: String) -> [String] {
        let old = before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = after.split(separator: "\n", omittingEmptySubsequences: false)
        guard old.count == new.count else { return ["line count \(old.count) → \(new.count)"] }
        return zip(old, new).filter { $0 != $1 }.map { "\($0) → \($1)" }
    }

    @Test func settingAKeyTheFileHasChangesOnlyItsValueAndKeepsTheCommentOnItsLine() throws {
        let after = try edited(Self.commented) { document throws(TOMLEditError) in
            try document.set(["plugins", "swaps", "night_prep"], to: .string("off"))
        }
        #expect(
            changedLines(Self.commented, after) == [
                "night_prep = \"21:00\"           # \"Prep tonight\"; \"off\" for none → "
                    + "night_prep = \"off\"           # \"Prep tonight\"; \"off\" for none"
            ])
        #expect(
            TOMLDocument(parsing: after).root["plugins"]?.value.table?["swaps"]?.value.table?["night_prep"]?.value
                == .string("off"))
    }

    @Test func aNewKeyGoesAfterTheLastKeyOfItsTableWithTheFilesIndentation() throws {
        let text = "[a]\n  x = 1\n  y = 2\n\n[b]\n  z = 3\n"
        let after = try edited(text) { document throws(TOMLEditError) in
            try document.set(["a", "new"], to: .boolean(true))
        }
        #expect(after == "[a]\n  x = 1\n  y = 2\n  new = true\n\n[b]\n  z = 3\n")
    }

    @Test func aNewTableGoesAtTheEndOfTheFileAfterABlankLine() throws {
        let after = try edited(Self.commented) { document throws(TOMLEditError) in
            try document.set(["plugins", "water", "enabled"], to: .boolean(true))
        }
        #expect(after == Self.commented + "\n[plugins.water]\nenabled = true\n")
    }

    @Test(arguments: [
        commented, "", "a = 1", "a = 1\n", "a = 1\n\n", "[t]\nx = 1", "[t]\nx = 1\n\n\n", "[t]\r\nx = 1\r\n",
        "\u{FEFF}# only a comment\n", "[plugins.swaps]\n# mine\n",
    ])
    func settingThenRemovingAKeyTheFileDidNotHaveGivesTheFileBackByteForByte(_ text: String) throws {
        for path in [["plugins", "swaps", "night_prep"], ["plugins", "water", "enabled"], ["top"], ["t", "y"]] {
            var document = TOMLDocument(parsing: text)
            guard (try? document.remove(path)) == nil else { continue }  // only keys the file does not have
            try document.set(path, to: .string("off"))
            #expect(document.text != text)
            try document.remove(path)
            #expect(document.text == text, "\(path) in \(text.debugDescription)")
        }
    }

    @Test func aFileWithWindowsLineEndsKeepsThem() throws {
        let after = try edited("[t]\r\nx = 1\r\n") { document throws(TOMLEditError) in
            try document.set(["t", "y"], to: .integer(2))
        }
        #expect(after == "[t]\r\nx = 1\r\ny = 2\r\n")
    }

    @Test func keysThatNeedQuotingAreQuotedAndStringsEscaped() throws {
        let after = try edited("") { document throws(TOMLEditError) in
            try document.set(["plugins", "my plugin", "title"], to: .string("Say \"hi\"\\\n\u{7}"))
        }
        #expect(after == "[plugins.\"my plugin\"]\ntitle = \"Say \\\"hi\\\"\\\\\\n\\u0007\"\n")
        let read = TOMLDocument(parsing: after).root["plugins"]?.value.table?["my plugin"]?.value.table?["title"]
        #expect(read?.value == .string("Say \"hi\"\\\n\u{7}"))
    }

    @Test func aKeyOfADottedTableGoesBesideItsDottedKeys() throws {
        let text = "[plugins]\nswaps.night_prep = \"21:00\"\nhabits.enabled = true\n"
        let after = try edited(text) { document throws(TOMLEditError) in
            try document.set(["plugins", "swaps", "morning_focus"], to: .string("off"))
        }
        #expect(
            after == "[plugins]\nswaps.night_prep = \"21:00\"\nswaps.morning_focus = \"off\"\nhabits.enabled = true\n")
    }

    @Test func aKeyOfAnInlineTableIsSetInsideIt() throws {
        let after = try edited("swaps = { night_prep = \"21:00\" }\nempty = {}\n") { document throws(TOMLEditError) in
            try document.set(["swaps", "night_prep"], to: .string("off"))
            try document.set(["swaps", "morning_focus"], to: .string("08:00"))
            try document.set(["empty", "a"], to: .integer(1))
        }
        #expect(after == "swaps = { night_prep = \"off\", morning_focus = \"08:00\" }\nempty = { a = 1 }\n")
        let removed = try edited(after) { document throws(TOMLEditError) in
            try document.remove(["swaps", "night_prep"])
        }
        #expect(removed == "swaps = { morning_focus = \"08:00\" }\nempty = { a = 1 }\n")
    }

    @Test func settingAValueEqualToTheOneWrittenLeavesItsQuotingAlone() throws {
        let text = "[t]\nx = 'off' # mine\n"
        let after = try edited(text) { document throws(TOMLEditError) in
            try document.set(["t", "x"], to: .string("off"))
        }
        #expect(after == text)
    }

    @Test func removingAKeyRemovesItsLineAndATableRemovesItsLinesAndSubTables() throws {
        let removedKey = try edited(Self.commented) { document throws(TOMLEditError) in
            try document.remove(["plugins", "swaps", "morning_focus"])
        }
        let kept = Self.commented.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0 != "morning_focus = \"08:00\"" }
        #expect(removedKey == kept.joined(separator: "\n"))
        let removedTable = try edited("[a]\nx = 1\n\n[a.b]\ny = 2\n\n[c]\nz = 3\n") { document throws(TOMLEditError) in
            try document.remove(["a"])
        }
        #expect(removedTable == "[c]\nz = 3\n")
    }

    @Test func aRemovedTableTakesTheCommentsRightAboveItsHeaderAndLeavesTheOthers() throws {
        // "# Swaps: evening prep." sits right above [plugins.swaps]: it goes with it.
        let swaps = try edited(Self.commented) { document throws(TOMLEditError) in
            try document.remove(["plugins", "swaps"])
        }
        #expect(
            swaps
                == "# My Hooray settings.\n\n[delivery]\nicon = \"hooray\"   # the bell\n\n[plugins.habits]\nenabled = true\n"
        )
        // A blank line parts "# My Hooray settings." from [delivery]: it is the file's, and stays.
        let delivery = try edited(Self.commented) { document throws(TOMLEditError) in
            try document.remove(["delivery"])
        }
        #expect(delivery.hasPrefix("# My Hooray settings.\n\n# Swaps: evening prep.\n[plugins.swaps]\n"), "\(delivery)")
        // Two tables in a row, each with its comment, and a table emptied of its one key.
        let both = try edited("# a\n[a]\nx = 1\n# b\n[b]\ny = 2\n# c\n[c]\nz = 3\n") { document throws(TOMLEditError) in
            try document.remove(["a"])
            try document.remove(["b"])
            try document.remove(["c", "z"])
        }
        #expect(both == "")
    }

    @Test func anArrayTableIsAppendedAfterTheLastOneAndItsSubTables() throws {
        let text = "[[r]]\ntitle = \"A\"\n\n[r.extra]\nk = 1\n\n[other]\nx = 1\n"
        let after = try edited(text) { document throws(TOMLEditError) in
            try document.appendArrayTable(["r"], entries: [("title", .string("B")), ("at", .string("18:00"))])
        }
        #expect(
            after
                == "[[r]]\ntitle = \"A\"\n\n[r.extra]\nk = 1\n\n[[r]]\ntitle = \"B\"\nat = \"18:00\"\n\n[other]\nx = 1\n"
        )
        let appended = try edited("a = 1\n") { document throws(TOMLEditError) in
            try document.appendArrayTable(
                ["plugins", "reminders", "reminder"], entries: [("title", .string("Call mom"))])
        }
        #expect(appended == "a = 1\n\n[[plugins.reminders.reminder]]\ntitle = \"Call mom\"\n")
    }

    @Test func editsThatCannotBeMadeAreRefusedAndTheDocumentIsUnchanged() throws {
        let cases: [(String, (inout TOMLDocument) throws(TOMLEditError) -> Void, String)] = [
            (
                "x = 1\n", { document throws(TOMLEditError) in try document.set(["x", "y"], to: .integer(1)) },
                "not a table"
            ),
            (
                "[a]\nx = 1\n", { document throws(TOMLEditError) in try document.set(["a"], to: .integer(1)) },
                "is a table"
            ),
            ("x = 1\n", { document throws(TOMLEditError) in try document.remove(["y"]) }, "not in the file"),
            (
                "[[r]]\ntitle = \"A\"\n",
                { document throws(TOMLEditError) in try document.set(["r", "title"], to: .string("B")) },
                "[[r]]"
            ),
            ("x = [\n", { document throws(TOMLEditError) in try document.set(["y"], to: .integer(1)) }, "mistake"),
        ]
        for (text, edit, expected) in cases {
            var document = TOMLDocument(parsing: text)
            do {
                try edit(&document)
                Issue.record("\(text.debugDescription) was edited")
            } catch {
                #expect(error.message.contains(expected), "\(error.message)")
            }
            #expect(document.text == text)
        }
    }

    @Test(arguments: [
        ("true", TOMLLiteral.boolean(true)), ("3", .integer(3)), ("\"x y\"", .string("x y")),
        ("'a\\b'", .string("a\\b")),
        ("[1, 2]", .array([.integer(1), .integer(2)])), ("{ a = 1 }", .inlineTable([("a", .integer(1))])),
        ("2026-11-24", .dateTime("2026-11-24")), ("1.5", .float(1.5)),
    ])
    func aValueTypedAsTOMLIsRead(_ typed: String, _ expected: TOMLLiteral) {
        #expect(TOMLLiteral(parsing: typed) == expected)
    }

    @Test(arguments: ["off", "21:00", "mon-fri", "Call mom", "", "1 = 2", "x\ny = 1", "\"open"])
    func wordsThatAreNotOneTOMLValueAreNotRead(_ typed: String) {
        #expect(TOMLLiteral(parsing: typed) == nil)
    }

    @Test func aLiteralPrintsAsTOMLReadsIt() {
        let literal = TOMLLiteral.inlineTable([
            ("a b", .array([.string("\u{1B}"), .float(.infinity), .boolean(false)])), ("t", .dateTime("08:30:00")),
        ])
        #expect(literal.text == "{ \"a b\" = [\"\\u001B\", inf, false], t = 08:30:00 }")
        #expect(TOMLLiteral(parsing: literal.text) == literal)
    }
}

extension EditingTests {
    /// `[t]` with only `x` in it is the same table as none: removing `x` takes the header too, as
    /// `set` of a key of a table the file did not have added both.
    @Test func removingTheLastKeyOfATableWithoutCommentsRemovesItsHeader() throws {
        let after = try edited("a = 1\n\n[t]\nx = 1\n\n[u]\ny = 2\n") { document throws(TOMLEditError) in
            try document.remove(["t", "x"])
        }
        #expect(after == "a = 1\n\n[u]\ny = 2\n")
    }
}

extension EditingTests {
    @Test func aKeyOfTheTopGoesAfterTheKeysAboveTheFirstHeader() throws {
        let after = try edited("# top\na = 1\n\n[t]\nx = 1\n") { document throws(TOMLEditError) in
            try document.set(["b"], to: .integer(2))
        }
        #expect(after == "# top\na = 1\nb = 2\n\n[t]\nx = 1\n")
        let first = try edited("[t]\nx = 1\n") { document throws(TOMLEditError) in
            try document.set(["b"], to: .integer(2))
        }
        #expect(first == "b = 2\n[t]\nx = 1\n")
    }
}
