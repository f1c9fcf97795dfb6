import Foundation
import HoorayKit
import Testing

/// A button's question (``NoticeAction/prompt``) and its answer (``InvokedAction/answer``) are new
/// optional members: what is already stored in users' inboxes still decodes, and a button without
/// a question is stored exactly as before.
@Suite struct ActionQuestionCodingTests {
    static func sortedEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    @Test func aNoticeStoredBeforeButtonsAskedDecodesWithNoQuestion() throws {
        // A Night Prep as stored by Hooray before buttons could ask a question.
        let old = """
            {"actions":[{"id":"did-swap","label":"I did my swap"},{"id":"prep-now","label":"Prep now"}],\
            "body":"Made a healthy swap today?","category":"hooray.swaps.night-prep","payload":{"day":"2026-06-15"},\
            "sound":{"serverDefault":{}},"timeout":{"serverDefault":{}},"title":"Prep tonight","urgency":"normal"}
            """

        let notice = try JSONDecoder().decode(Notice.self, from: Data(old.utf8))

        #expect(notice.actions.map(\.id) == ["did-swap", "prep-now"])
        #expect(notice.actions.allSatisfy { $0.prompt == nil })
        #expect(notice.actions.first == NoticeAction(id: "did-swap", label: "I did my swap"))
    }

    @Test func aButtonWithoutAQuestionIsStoredAsBefore() throws {
        let data = try Self.sortedEncoder().encode(NoticeAction(id: "done", label: "Done"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":"done","label":"Done"}"#)
    }

    @Test func aQuestionSurvivesStorage() throws {
        let button = NoticeAction(id: "did-swap", label: "I did my swap", prompt: "What was your swap?")
        let data = try Self.sortedEncoder().encode(button)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"id":"did-swap","label":"I did my swap","prompt":"What was your swap?"}"#)
        #expect(try JSONDecoder().decode(NoticeAction.self, from: data) == button)
        #expect(
            try JSONDecoder().decode(NoticeAction.self, from: Data(#"{"id":"a","label":"A","prompt":null}"#.utf8))
                .prompt == nil)
    }

    @Test func anInvokedActionWithoutAnAnswerDecodesAndEncodesAsBefore() throws {
        // As encoded before invoked actions had an answer.
        let old =
            #"{"actionID":"done","dueAt":803250000,"notice":{"rawValue":12},"payload":{"day":"2026-06-15"},"reminderID":"daily"}"#

        let action = try JSONDecoder().decode(InvokedAction.self, from: Data(old.utf8))

        #expect(action.answer == nil)
        #expect(action.notice == NoticeID(rawValue: 12))
        #expect(action.reminderID == "daily")
        #expect(String(decoding: try Self.sortedEncoder().encode(action), as: UTF8.self) == old)
    }

    @Test func anAnswerSurvivesEncoding() throws {
        let action = InvokedAction(notice: NoticeID(rawValue: 3), actionID: "did-swap", answer: "Tea instead of wine")
        let decoded = try JSONDecoder().decode(InvokedAction.self, from: JSONEncoder().encode(action))
        #expect(decoded == action)
        #expect(decoded.answer == "Tea instead of wine")
    }
}
