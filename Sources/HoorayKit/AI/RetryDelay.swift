/// How long to wait before the next try of a failed background request: exponential backoff with jitter.
///
/// The ceiling for try `attempt` is `base × 2^(attempt − 1)`, at most `cap`; the delay is drawn
/// evenly from the upper half of that ceiling. The lower half is left out so delays keep growing
/// from one attempt to the next, and the random half keeps many computers that lost the same
/// service at the same moment from all coming back at once.
///
/// - Parameters:
///   - attempt: How many tries have failed so far, from 1; smaller values count as 1.
///   - base: The ceiling after the first failure, such as 30 seconds.
///   - cap: The largest delay, such as 1 hour.
///   - random: The source of jitter; pass a seeded generator in tests.
/// - Returns: A delay between half the ceiling and the ceiling.
public func retryDelay(attempt: Int, base: Duration, cap: Duration, random: inout some RandomNumberGenerator)
    -> Duration
{
    let baseSeconds = max(0, seconds(of: base))
    let capSeconds = max(0, seconds(of: cap))
    // 2^62 seconds is far past any cap; stopping the exponent there keeps the arithmetic finite.
    let exponent = Double(min(max(attempt, 1) - 1, 62))
    let ceiling = min(capSeconds, baseSeconds * Double.pow2(exponent))
    guard ceiling > 0 else { return .zero }
    let delay = Double.random(in: (ceiling / 2)...ceiling, using: &random)
    return .nanoseconds(Int64((delay * 1e9).rounded(.down)))
}

private func seconds(of duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
}

extension Double {
    fileprivate static func pow2(_ exponent: Double) -> Double {
        Double(sign: .plus, exponent: Int(exponent), significand: 1)
    }
}
