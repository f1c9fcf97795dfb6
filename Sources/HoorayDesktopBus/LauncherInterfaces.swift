// The interfaces the launchers call, as their projects publish them: GNOME Shell's
// data/dbus-interfaces/org.gnome.Shell.SearchProvider2.xml and KRunner's
// src/data/org.kde.krunner1.xml (Plasma's krunner repository).
extension DesktopBus {
    static let searchProviderXML = """
        <node>
          <interface name="org.gnome.Shell.SearchProvider2">
            <method name="GetInitialResultSet">
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetSubsearchResultSet">
              <arg type="as" name="previous_results" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetResultMetas">
              <arg type="as" name="identifiers" direction="in"/>
              <arg type="aa{sv}" name="metas" direction="out"/>
            </method>
            <method name="ActivateResult">
              <arg type="s" name="identifier" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
            <method name="LaunchSearch">
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
          </interface>
        </node>
        """

    static let krunnerXML = """
        <node>
          <interface name="org.kde.krunner1">
            <method name="Actions">
              <arg name="matches" type="a(sss)" direction="out"/>
            </method>
            <method name="Run">
              <arg name="matchId" type="s" direction="in"/>
              <arg name="actionId" type="s" direction="in"/>
            </method>
            <method name="Match">
              <arg name="query" type="s" direction="in"/>
              <arg name="matches" type="a(sssida{sv})" direction="out"/>
            </method>
            <method name="Teardown"/>
          </interface>
        </node>
        """
}
