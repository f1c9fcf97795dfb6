import Foundation
import HoorayKit
import Testing

@Suite struct NoticeSoundTests {
    @Test func aNoticeStoredBeforeSoundsExistedDecodesWithTheServerDefault() throws {
        // A payload as stored by Hooray before notices had a sound.
        let old = """
            {"actions":[{"id":"snooze","label":"Snooze 1 h"}],"body":"Now","category":"reminder",\
            "timeout":{"serverDefault":{}},"title":"Stretch","urgency":"normal"}
            """

        let notice = try JSONDecoder().decode(Notice.self, from: Data(old.utf8))

        #expect(
            notice
                == Notice(
                    title: "Stretch", body: "Now", actions: [NoticeAction(id: "snooze", label: "Snooze 1 h")],
                    category: "reminder"))
        #expect(notice.sound == .serverDefault)
    }

    @Test(arguments: [Notice.Sound.serverDefault, .silent, .named("complete")])
    func soundsSurviveStorage(sound: Notice.Sound) throws {
        let notice = Notice(title: "Hooray", sound: sound)

        let decoded = try JSONDecoder().decode(Notice.self, from: JSONEncoder().encode(notice))

        #expect(decoded == notice)
    }
}
