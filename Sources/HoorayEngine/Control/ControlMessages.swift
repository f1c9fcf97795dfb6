/// The names a request id is claimed under in the database (``HoorayStorage/RequestClaim``).
public enum RequestClaimant {
    /// The daemon, which claims each request id before running the request.
    public static let daemon = "hoorayd"
    /// A `hooray` that ran a request itself because the daemon did not answer in time.
    public static let cli = "hooray"
}
