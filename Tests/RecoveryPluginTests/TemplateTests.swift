import Foundation
import HoorayCommandLine
import HoorayKit
import Testing

@testable import RecoveryPlugin

/// Response templates: the seed's words, filling placeholders, and what `--copy` hands to `hooray`.
@Suite struct TemplateTests {
    static func templates(
        type: String? = nil, number: String? = nil, fill: [String] = [], copy: Bool = false
    ) throws -> CommandReply {
        var values: [String: [String]] = [:]
        if let type { values["type"] = [type] }
        if let number { values["number"] = [number] }
        if !fill.isEmpty { values["fill"] = fill }
        return try RecoveryPlugin().templatesCommand(
            CommandInvocation(command: "templates", values: values, flags: copy ? ["copy"] : []))
    }

    /// The refusal of a command, which must be a usage error (exit 64) of `option`.
    static func usageError(of option: String, _ body: () throws -> CommandReply) -> String? {
        do {
            _ = try body()
            Issue.record("the command was not refused")
            return nil
        } catch let error as PluginCommandError {
            #expect(error.invalidOption == option, "a usage error of \(option), so that hooray exits 64")
            return error.message
        } catch {
            Issue.record("not a PluginCommandError: \(error)")
            return nil
        }
    }

    @Test func theSeedsTemplatesAreWordForWord() throws {
        let seed: [(RejectionType, String, String, String, String)] = [
            (
                .dating, "After Being Ghosted", "When someone stops responding completely", "Graceful exit",
                "Hey [Name], I noticed we haven't connected in a while. No worries if you're not interested - I appreciate the good conversations we had. Take care!"
            ),
            (
                .dating, "After Direct Rejection", "When someone says they're not interested", "Mature response",
                "Thanks for being honest with me. I respect that and wish you the best!"
            ),
            (
                .job, "Following Up After Silence", "When you haven't heard back about an application",
                "Professional persistence",
                "Hi [Name], I wanted to follow up on my application for [Position]. I'm still very interested and would love to discuss how my skills could contribute to [Company]. Thank you for your time."
            ),
            (
                .job, "Responding to Rejection", "When you receive a rejection email", "Professional grace",
                "Thank you for letting me know. While I'm disappointed, I appreciate the opportunity to interview. If any similar positions open up, I'd love to be considered. Best wishes to your team."
            ),
        ]
        for (type, title, scenario, tone, text) in seed {
            let template = try #require(ResponseTemplates.all.first { $0.title == title })
            #expect(template.type == type)
            #expect(template.scenario == scenario)
            #expect(template.tone == tone)
            #expect(template.text == text)
        }
        for type in RejectionType.allCases {
            #expect(ResponseTemplates.templates(for: type).count == 2, "two templates for \(type)")
        }
        let ids = ResponseTemplates.all.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func theListIsGroupedByKindAndNumbered() throws {
        let all = try Self.templates().text
        let headings = try RejectionType.allCases.map { type in
            try #require(all.range(of: "\(type.label)\n")).lowerBound
        }
        #expect(headings == headings.sorted(), "one group for each kind, in order")
        #expect(
            all.hasPrefix(
                "💔 Dating\n\n1. After Being Ghosted · Graceful exit\n   When someone stops responding completely\n   Hey [Name],"
            ))
        #expect(all.contains("\n10. Closing the Loop · Friendly clarity\n"))

        let job = try Self.templates(type: "job").text
        #expect(job.hasPrefix("💼 Job\n\n1. Following Up After Silence · Professional persistence\n"))
        #expect(job.contains("\n2. Responding to Rejection · Professional grace\n"))
        #expect(!job.contains("Dating"))
    }

    @Test func fillingReplacesPlaceholdersAndSaysWhichAreLeft() throws {
        let reply = try Self.templates(type: "job", fill: ["Name=Sam", "position=Designer"])
        #expect(
            reply.text.contains(
                "   Hi Sam, I wanted to follow up on my application for Designer. I'm still very interested and would love to discuss how my skills could contribute to [Company]."
            ))
        #expect(reply.text.hasSuffix("\n\nStill to fill: [Company]. Fill them with --fill, such as --fill Company=…"))
        #expect(reply.clipboard == nil)

        let full = try Self.templates(type: "job", fill: ["Name=Sam", "Position=Designer", "[Company]=Acme"])
        #expect(full.text.contains("contribute to Acme. Thank you for your time."))
        #expect(!full.text.contains("Still to fill"))
        #expect(!full.text.contains("["))

        // A value with brackets is taken as it is.
        let odd = try Self.templates(type: "dating", fill: ["Name=[Company]"])
        #expect(odd.text.contains("Hey [Company], I noticed"))
    }

    @Test func aPlaceholderNoShownTemplateHasIsAUsageError() throws {
        let message = Self.usageError(of: "--fill") { try Self.templates(type: "job", fill: ["Event=party"]) }
        #expect(
            message
                == "--fill Event=…: no template shown has a [Event] placeholder; the placeholders are [Name], [Position], [Company]"
        )
        let none = Self.usageError(of: "--fill") {
            try Self.templates(type: "dating", number: "2", fill: ["Name=Sam"])
        }
        #expect(none == "--fill Name=…: the templates shown have no placeholders; leave out --fill")
    }

    @Test(arguments: ["Sam", "=Sam", "Name=", "Name=  "])
    func aMalformedFillIsAUsageErrorWithTheFix(given: String) throws {
        let message = try #require(Self.usageError(of: "--fill") { try Self.templates(fill: [given]) })
        #expect(message.hasPrefix("--fill \"\(given)\""))
        #expect(message.hasSuffix("such as --fill Name=Sam"))
    }

    @Test func anUnknownKindOrNumberIsAUsageError() throws {
        let kind = Self.usageError(of: "--type") { try Self.templates(type: "jobs") }
        #expect(kind?.contains("did you mean job?") == true)
        let number = Self.usageError(of: "--number") { try Self.templates(type: "job", number: "3") }
        #expect(
            number
                == "--number 3 is not in the list; give 1 to 2, as `hooray recovery templates --type job` numbers them")
    }

    @Test func copyTakesTheFirstTemplateShownOrTheNumberedOne() throws {
        let first = try Self.templates(
            type: "job", fill: ["Name=Sam", "Position=Designer", "Company=Acme"], copy: true)
        #expect(
            first.clipboard
                == "Hi Sam, I wanted to follow up on my application for Designer. I'm still very interested and would love to discuss how my skills could contribute to Acme. Thank you for your time."
        )
        #expect(!first.text.contains("Responding to Rejection"), "only the template copied is shown")
        #expect(first.text.hasSuffix("--copy takes the first template; add --number N for another (1–2)."))
        #expect(first.json?["copied"] == .string(first.clipboard!))

        let second = try Self.templates(type: "dating", number: "2", copy: true)
        #expect(second.clipboard == "Thanks for being honest with me. I respect that and wish you the best!")
        #expect(second.text.contains("2. After Direct Rejection · Mature response"))
        #expect(!second.text.contains("--copy takes"))

        // Unfilled placeholders go to the clipboard as they are, and the text says so.
        let unfilled = try Self.templates(type: "social", copy: true)
        #expect(unfilled.clipboard?.contains("[Name]") == true)
        #expect(unfilled.text.contains("Still to fill: [Name], [Event]."))
    }
}
