import Foundation
import GRDB
import HoorayKit

/// The key each plugin declared its reminders with (``HoorayKit/ReminderBook/replaceAll(declaring:key:)``):
/// while it is stored, the plugin's rules are exactly what that declaration made of them, moved on
/// only by coming due and by snoozes.
extension HoorayDatabase {
    /// Adds the table of keys, and the triggers that forget a plugin's key whenever its rules change
    /// in any other way: a rule changed or removed other than by a declaration with a digest. Next
    /// due instants and snoozes (ids `snoozed.…`) move on without forgetting it.
    ///
    /// A rule added is forgotten by the writers that add (``forgetDeclaration(of:in:)``): a trigger on
    /// each insert cost a first start that writes 100,000 rules a fifth of its writing.
    static func registerDeclarationKeys(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8: declaration key") { db in
            try db.execute(
                sql: """
                    CREATE TABLE declaration (
                        plugin TEXT PRIMARY KEY NOT NULL,
                        key TEXT NOT NULL,
                        reminders INTEGER NOT NULL
                    );
                    CREATE TRIGGER rule_changed_forgets_declaration
                    AFTER UPDATE OF plugin, reminderID, reminder, scheduleKey, sourceDigest ON rule
                    WHEN NEW.sourceDigest IS NULL AND substr(NEW.reminderID, 1, 8) <> 'snoozed.'
                    BEGIN DELETE FROM declaration WHERE plugin IN (OLD.plugin, NEW.plugin); END;
                    CREATE TRIGGER rule_removed_forgets_declaration AFTER DELETE ON rule
                    WHEN substr(OLD.reminderID, 1, 8) <> 'snoozed.'
                    BEGIN DELETE FROM declaration WHERE plugin = OLD.plugin; END;
                    """)
        }
    }

    /// Forgets a plugin's declaration key: for each write that adds rules other than a declaration.
    static func forgetDeclaration(of plugin: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM declaration WHERE plugin = ?", arguments: [plugin])
    }

    /// Stores a plugin's declaration key, after its rules were written in the same transaction;
    /// `nil` forgets it.
    static func storeDeclarationKey(_ key: String?, plugin: String, reminders: Int, in db: Database) throws {
        guard let key else { return try forgetDeclaration(of: plugin, in: db) }
        try db.execute(
            sql: "INSERT OR REPLACE INTO declaration (plugin, key, reminders) VALUES (?, ?, ?)",
            arguments: [plugin, key, reminders])
    }

    /// The stored key of a plugin's declaration, with the version that stored it in front
    /// (`"1.4.0 …"`), or `nil` when there is none.
    public func declarationKey(plugin: String) async throws -> String? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT key FROM declaration WHERE plugin = ?", arguments: [plugin])
        }
    }

    /// A plugin's rules as stored, when they were declared with this key by this version of Hooray.
    ///
    /// - Parameters:
    ///   - plugin: The plugin.
    ///   - key: The key the plugin would declare with now.
    ///   - version: Hooray's version.
    /// - Returns: How many reminders were declared, and the id and next due instant of each rule of
    ///   the plugin (its snoozes too); `nil` when another key, or none, is stored.
    public func declaredRuleTimes(
        plugin: String, key: String, version: String
    ) async throws -> (reminders: Int, times: [RuleTime])? {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT key, reminders FROM declaration WHERE plugin = ?", arguments: [plugin]),
                row[0] as String == "\(version) \(key)"
            else { return nil }
            // What the triggers and the writers may have missed is checked too, in the same pass: as
            // many rules as were declared (snoozes aside), each with a digest of this version or none
            // (a rule written by another version of Hooray since, say, is not vouched for).
            let prefix = "\(version) "
            var times: [RuleTime] = []
            var declared = 0
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT reminderID, nextDue, substr(reminderID, 1, 8) = 'snoozed.',
                        sourceDigest IS NULL OR substr(sourceDigest, 1, ?) = ?
                    FROM rule WHERE plugin = ?
                    """, arguments: [prefix.utf8.count, prefix, plugin])
            while let rule = try rows.next() {
                guard rule[3] as Bool else { return nil }
                if !(rule[2] as Bool) { declared += 1 }
                times.append(RuleTime(reminderID: rule[0], nextDue: (rule[1] as Double?).map(Date.init(unixSeconds:))))
            }
            guard declared == row[1] as Int else { return nil }
            return (row[1], times)
        }
    }
}
