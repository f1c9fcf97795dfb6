/// The faces of seed 002's impact slider ("Contextual emoji feedback: Slider shows different emoji
/// faces"): how much a rejection hurt, from 1 to 10, as a face. One table for `hooray reject`'s menu
/// and the window's slider.
public enum ImpactFaces {
    /// 🙂 for 1–2, 😕 for 3–4, 😟 for 5–6, 😣 for 7–8, 😭 for 9–10.
    public static func face(forImpact impact: Int) -> String {
        switch impact {
        case ...2: "🙂"
        case 3...4: "😕"
        case 5...6: "😟"
        case 7...8: "😣"
        default: "😭"
        }
    }
}
