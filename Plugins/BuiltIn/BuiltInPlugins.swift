import HabitsPlugin
import HoorayKit
import RecoveryPlugin
import RemindersPlugin
import ReviewPlugin
import SwapsPlugin
import WaterPlugin
import WinsPlugin

/// The plugins that ship with Hooray, registered explicitly (no discovery, no globals).
public enum BuiltInPlugins {
    /// A fresh instance of every built-in plugin, in the order `hooray plugins` lists them.
    public static var all: [any HoorayPlugin] {
        [
            RemindersPlugin(), WinsPlugin(), RecoveryPlugin(), SwapsPlugin(), HabitsPlugin(), WaterPlugin(),
            ReviewPlugin(),
        ]
    }
}
