import Foundation
import HoorayKit

// PLACEHOLDER-SWAPS: the swaps-core helper owns this file.
extension SwapsPlugin {
    /// The day's inspiration: one sentence, the same all day; `nil` when `inspiration = false`.
    func inspiration(on day: LocalDate, configuration: SwapsConfiguration) -> String? {
        configuration.inspiration ? "Every prep you do tonight is a gift for your tomorrow self." : nil
    }
}
