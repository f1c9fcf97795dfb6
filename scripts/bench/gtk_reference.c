// The reference of the app's cold-start figure (app_start.py): a minimal GTK 4 / libadwaita program,
// an AdwApplication whose window has a header bar, a line of text and a button, as small as an app
// can be. It writes the same line as `hooray-app` with HOORAY_APP_REPORT_FIRST_FRAME=1 when its
// window has painted its first frame (GdkFrameClock after-paint). Built by app_start.py with -O2 and
// the release flags of the app (relro, now).
#include <adwaita.h>
#include <stdio.h>
#include <time.h>

static void after_paint(GdkFrameClock *clock, gpointer window) {
    g_signal_handlers_disconnect_by_func(clock, (gpointer)after_paint, window);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(stderr, "gtk-reference: first frame painted (GdkFrameClock after-paint): %s at CLOCK_MONOTONIC %lld ns\n",
            gtk_window_get_title(GTK_WINDOW(window)), (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
}

static void realized(GtkWidget *window, gpointer unused) {
    (void)unused;
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(after_paint), window);
}

static void activate(GtkApplication *application, gpointer unused) {
    (void)unused;
    GtkWidget *window = adw_application_window_new(application);
    gtk_window_set_title(GTK_WINDOW(window), "Reference");
    gtk_window_set_default_size(GTK_WINDOW(window), 480, 560);
    GtkWidget *column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24);
    gtk_box_append(GTK_BOX(column), adw_header_bar_new());
    GtkWidget *text = gtk_label_new("You're doing great.");
    gtk_widget_add_css_class(text, "title-2");
    gtk_box_append(GTK_BOX(column), text);
    GtkWidget *button = gtk_button_new_with_mnemonic("I _Did a Thing");
    gtk_widget_add_css_class(button, "suggested-action");
    gtk_widget_add_css_class(button, "pill");
    gtk_widget_set_halign(button, GTK_ALIGN_CENTER);
    gtk_box_append(GTK_BOX(column), button);
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), column);
    g_signal_connect(window, "realize", G_CALLBACK(realized), NULL);
    gtk_window_present(GTK_WINDOW(window));
}

int main(void) {
    AdwApplication *application = adw_application_new("org.hooray.BenchReference", G_APPLICATION_DEFAULT_FLAGS);
    g_signal_connect(application, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(application), 0, NULL);
    g_object_unref(application);
    return status;
}
