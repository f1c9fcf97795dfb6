/// Where to find help in a crisis: the words `hooray about` shows, for every plugin that touches
/// hard moments to show the same.
///
/// Hooray is not a crisis service, and says so wherever it offers comfort.
public enum CrisisHelp {
    /// The paragraph of `hooray about`, wrapped for a terminal.
    public static let paragraph = """
        Hooray is not a crisis service. If you are in danger or thinking about harming yourself,
        please call your local emergency number now (112 in Europe, 911 in North America), or
        reach a crisis line: in the US call or text 988; elsewhere https://findahelpline.com lists
        free, confidential lines in your country.
        """

    /// The same, unwrapped, for a notification.
    public static let short =
        "If you are in danger or thinking about harming yourself, call your local emergency number "
        + "(112 in Europe, 911 in North America), or a crisis line: in the US call or text 988; "
        + "elsewhere https://findahelpline.com lists free lines. Hooray is not a crisis service."
}
