#ifndef HOORAY_GTK_TEST_SUPPORT_H
#define HOORAY_GTK_TEST_SUPPORT_H
/// Whether the variables GTK reads were made when the test process loaded (always 1): calling it keeps
/// this file, and its constructor, linked in.
int hooray_gtk_test_environment_made(void);
#endif
