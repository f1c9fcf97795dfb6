import HoorayKit
