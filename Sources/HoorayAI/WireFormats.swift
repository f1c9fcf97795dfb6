import Foundation
import HoorayKit

/// The Hooray backend's protocol: `POST {endpoint}/moments`.
enum HoorayWire {
    static let path = "/moments"

    struct Request: Encodable {
        var clientId: String
        var text: String
        var happenedAt: Date
        var submittedAt: Date
        var tz: String
        /// Seconds between `happenedAt` and `submittedAt`, as the backend's moment model has it.
        var timeAgo: Int
    }

    struct Response: Decodable {
        var id: String
        var clientId: String
        var aiPraise: String
        var action: String?
        var tags: [String]?
    }

    static func body(for moment: MomentForPraise) throws(AIRequestError) -> Data {
        try WireJSON.encode(
            Request(
                clientId: moment.clientID.uuidString.lowercased(), text: moment.text, happenedAt: moment.happenedAt,
                submittedAt: moment.submittedAt, tz: moment.timeZone,
                timeAgo: max(0, Int(moment.submittedAt.timeIntervalSince(moment.happenedAt).rounded()))))
    }

    static func praise(from data: Data, for moment: MomentForPraise) throws(AIRequestError) -> AIPraise {
        let response = try WireJSON.decode(Response.self, from: data)
        guard UUID(uuidString: response.clientId) == moment.clientID else {
            throw .malformedResponse(what: "the answer's clientId is not the moment that was sent")
        }
        let serverID = response.id.trimmingCharacters(in: .whitespaces)
        guard !serverID.isEmpty, serverID.count <= 200,
            serverID.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
        else {
            throw .malformedResponse(what: "the answer's id is empty, too long or contains control characters")
        }
        let text = try WireJSON.praiseText(response.aiPraise, field: "aiPraise")
        let action = response.action.map { PraiseText.sanitized($0, limit: 100) }.flatMap { $0.isEmpty ? nil : $0 }
        let tags = (response.tags ?? []).map { PraiseText.sanitized($0, limit: 50) }.filter { !$0.isEmpty }
        return AIPraise(text: text, serverID: serverID, action: action, tags: Array(tags.prefix(20)))
    }
}

/// OpenAI-compatible chat completions: `POST {endpoint}/v1/chat/completions`.
enum OpenAIWire {
    static let path = "/v1/chat/completions"

    /// A cap on the answer's length in tokens; praise is a sentence or two.
    static let maxTokens = 120

    /// What the model is asked to be. Warm and short; no advice, no shame, no pressure, no markup.
    static let systemPrompt = """
        You are Hooray, a warm and gentle companion. The user has just logged a small win, \
        something they did that counts. Reply with one or two short sentences (under 40 words) of \
        sincere, specific praise for it. Speak to them as "you". Never shame, never compare, never \
        pressure, never give advice or tasks, never ask questions. Plain text only: no markdown, \
        no lists, no quotation marks around the reply.
        """

    /// What the model is asked to be for a rejection the user logged (the recovery plugin): the
    /// warm, steady voice of its recovery cards. It is told only the kind and how much it hurt.
    static let rejectionPrompt = """
        You are Hooray, a warm and gentle companion for bouncing back from rejection. The user has \
        just logged a rejection that hurt; you are told only its kind and how much it hurt, from 1 \
        to 10. Reply with one or two short sentences (under 40 words) of steady encouragement: a \
        rejection is about one situation, not about their worth, and putting themselves out there \
        takes courage. Speak to them as "you". Never shame, never blame, never make light of the \
        hurt, never compare, never give advice or tasks, never ask questions. Plain text only: no \
        markdown, no lists, no quotation marks around the reply.
        """

    struct Request: Encodable {
        struct Message: Encodable {
            var role: String
            var content: String
        }
        var model: String
        var messages: [Message]
        var max_tokens: Int
    }

    struct Response: Decodable {
        struct Choice: Decodable {
            struct Message: Decodable {
                var content: String?
            }
            var message: Message
        }
        var choices: [Choice]
    }

    static func body(for moment: MomentForPraise, model: String) throws(AIRequestError) -> Data {
        let text = moment.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let system: String
        let user: String
        switch moment.kind {
        case .win:
            system = systemPrompt
            user =
                "My small win: \(text.isEmpty ? "(something I'd rather keep private)" : text)\n"
                + "When: \(moment.timeAgo) (time zone \(moment.timeZone))"
        case .rejection:
            // No time and no time zone: the kind and the impact are all it is told.
            system = rejectionPrompt
            user = text
        }
        return try WireJSON.encode(
            Request(
                model: model,
                messages: [.init(role: "system", content: system), .init(role: "user", content: user)],
                max_tokens: maxTokens))
    }

    static func praise(from data: Data) throws(AIRequestError) -> AIPraise {
        let response = try WireJSON.decode(Response.self, from: data)
        guard let first = response.choices.first else {
            throw .malformedResponse(what: "the answer has no choices")
        }
        guard let content = first.message.content else {
            throw .malformedResponse(what: "the answer's choices[0].message.content is empty")
        }
        return AIPraise(text: try WireJSON.praiseText(content, field: "choices[0].message.content"))
    }
}

/// JSON encoding and strict decoding shared by the wire formats.
enum WireJSON {
    static func encode(_ value: some Encodable) throws(AIRequestError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw .malformedResponse(what: "the request could not be written as JSON")
        }
    }

    /// Decodes an answer, describing any mismatch by field and kind, never by the values received.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(AIRequestError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw .malformedResponse(what: describe(error))
        } catch {
            throw .malformedResponse(what: "the answer is not JSON")
        }
    }

    /// Cleans praise and rejects it when nothing is left.
    static func praiseText(_ raw: String, field: String) throws(AIRequestError) -> String {
        let text = PraiseText.sanitized(raw)
        guard !text.isEmpty else { throw .malformedResponse(what: "the answer's \(field) is empty") }
        guard !PraiseText.containsMarkup(text) else {
            throw .malformedResponse(what: "the answer's \(field) contains markup; Hooray shows plain text only")
        }
        return text
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            let kind =
                type == String.self
                ? "text" : type is [String: Any].Type ? "an object" : type is [Any].Type ? "a list" : "\(type)"
            return field.isEmpty ? "the answer is not a JSON object" : "the answer's \(field) is not \(kind)"
        case .valueNotFound(_, let context):
            return "the answer's \(path(context.codingPath)) is null"
        case .keyNotFound(let key, let context):
            return "the answer has no \(path(context.codingPath + [key]))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "the answer is not JSON" : "the answer's \(path(context.codingPath)) cannot be read"
        @unknown default:
            return "the answer does not match the protocol"
        }
    }
}
