#include <stdlib.h>
#include "GtkTestSupport.h"

// The variables GTK reads, made while the test process is still one thread. Tests run side by side
// on many threads, and setenv() adding a variable may move the environment while another thread's
// getenv() reads it; replacing the value of one that exists only swaps a pointer. GtkTestDisplay
// then sets DISPLAY to its Xvfb without adding anything.
__attribute__((constructor)) static void hooray_gtk_test_environment(void) {
    setenv("DISPLAY", "", 0);
    setenv("GDK_BACKEND", "x11", 1);
    setenv("GSK_RENDERER", "cairo", 1);
}

int hooray_gtk_test_environment_made(void) { return 1; }
