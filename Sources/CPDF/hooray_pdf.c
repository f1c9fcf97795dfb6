#include "hooray_pdf.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Cairo's and Pango's types, as opaque as Hooray uses them.
typedef void cairo_surface_t;
typedef void cairo_t;
typedef void PangoLayout;
typedef void PangoFontDescription;

#define CAIRO_STATUS_SUCCESS 0
#define CAIRO_PDF_METADATA_TITLE 0
#define CAIRO_PDF_METADATA_CREATOR 4
#define PANGO_SCALE 1024
#define PANGO_WRAP_WORD_CHAR 2

// The functions Hooray calls, looked up once by hooray_pdf_load.
struct hooray_pdf_functions {
    cairo_surface_t *(*pdf_surface_create)(const char *path, double width, double height);
    void (*pdf_surface_set_metadata)(cairo_surface_t *surface, int metadata, const char *text);
    int (*surface_status)(cairo_surface_t *surface);
    void (*surface_finish)(cairo_surface_t *surface);
    void (*surface_destroy)(cairo_surface_t *surface);
    cairo_t *(*create)(cairo_surface_t *surface);
    int (*status)(cairo_t *cr);
    void (*destroy)(cairo_t *cr);
    void (*set_source_rgb)(cairo_t *cr, double red, double green, double blue);
    void (*rectangle)(cairo_t *cr, double x, double y, double width, double height);
    void (*fill)(cairo_t *cr);
    void (*move_to)(cairo_t *cr, double x, double y);
    void (*show_page)(cairo_t *cr);
    const char *(*status_to_string)(int status);
    PangoLayout *(*create_layout)(cairo_t *cr);
    void (*show_layout)(cairo_t *cr, PangoLayout *layout);
    void (*layout_set_text)(PangoLayout *layout, const char *text, int length);
    void (*layout_set_font_description)(PangoLayout *layout, const PangoFontDescription *description);
    void (*layout_set_width)(PangoLayout *layout, int width);
    void (*layout_set_wrap)(PangoLayout *layout, int wrap);
    void (*layout_get_size)(PangoLayout *layout, int *width, int *height);
    PangoFontDescription *(*font_description_from_string)(const char *text);
    void (*font_description_free)(PangoFontDescription *description);
    void (*object_unref)(void *object);
};
static struct hooray_pdf_functions functions;

// Set once loaded; read and written under `lock` only.
static int ready;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const libraries[] = {"libcairo.so.2", "libpango-1.0.so.0", "libpangocairo-1.0.so.0",
                                        "libgobject-2.0.so.0"};

// One attempt, under `lock`: every library opened and every function found, or nothing kept.
static int load(char *why, size_t size) {
    void *opened[4] = {NULL, NULL, NULL, NULL};
    for (size_t index = 0; index < 4; index++) {
        opened[index] = dlopen(libraries[index], RTLD_NOW | RTLD_LOCAL);
        if (opened[index] == NULL) {
            const char *reason = dlerror();
            snprintf(why, size, "%s", reason != NULL ? reason : libraries[index]);
            for (size_t open = 0; open < index; open++) dlclose(opened[open]);
            return 0;
        }
    }
    struct hooray_pdf_functions found;
    // dlsym hands back object pointers; POSIX guarantees they convert to function pointers.
#define HOORAY_FIND(field, library, name)                                                       \
    found.field = (__typeof__(found.field))dlsym(opened[library], name);                      \
    if (found.field == NULL) {                                                                  \
        snprintf(why, size, "%s has no %s (it is too old)", libraries[library], name);         \
        for (size_t open = 0; open < 4; open++) dlclose(opened[open]);                          \
        return 0;                                                                               \
    }
    HOORAY_FIND(pdf_surface_create, 0, "cairo_pdf_surface_create")
    HOORAY_FIND(pdf_surface_set_metadata, 0, "cairo_pdf_surface_set_metadata")
    HOORAY_FIND(surface_status, 0, "cairo_surface_status")
    HOORAY_FIND(surface_finish, 0, "cairo_surface_finish")
    HOORAY_FIND(surface_destroy, 0, "cairo_surface_destroy")
    HOORAY_FIND(create, 0, "cairo_create")
    HOORAY_FIND(status, 0, "cairo_status")
    HOORAY_FIND(destroy, 0, "cairo_destroy")
    HOORAY_FIND(set_source_rgb, 0, "cairo_set_source_rgb")
    HOORAY_FIND(rectangle, 0, "cairo_rectangle")
    HOORAY_FIND(fill, 0, "cairo_fill")
    HOORAY_FIND(move_to, 0, "cairo_move_to")
    HOORAY_FIND(show_page, 0, "cairo_show_page")
    HOORAY_FIND(status_to_string, 0, "cairo_status_to_string")
    HOORAY_FIND(layout_set_text, 1, "pango_layout_set_text")
    HOORAY_FIND(layout_set_font_description, 1, "pango_layout_set_font_description")
    HOORAY_FIND(layout_set_width, 1, "pango_layout_set_width")
    HOORAY_FIND(layout_set_wrap, 1, "pango_layout_set_wrap")
    HOORAY_FIND(layout_get_size, 1, "pango_layout_get_size")
    HOORAY_FIND(font_description_from_string, 1, "pango_font_description_from_string")
    HOORAY_FIND(font_description_free, 1, "pango_font_description_free")
    HOORAY_FIND(create_layout, 2, "pango_cairo_create_layout")
    HOORAY_FIND(show_layout, 2, "pango_cairo_show_layout")
    HOORAY_FIND(object_unref, 3, "g_object_unref")
#undef HOORAY_FIND
    functions = found;
    return 1;
}

int hooray_pdf_load(char *why, size_t size) {
    pthread_mutex_lock(&lock);
    if (!ready) ready = load(why, size);
    int result = ready;
    pthread_mutex_unlock(&lock);
    return result;
}

struct hooray_pdf {
    cairo_surface_t *surface;
    cairo_t *cr;
};

hooray_pdf *hooray_pdf_create(const char *path, double width, double height, const char *title, char *why,
                              size_t size) {
    cairo_surface_t *surface = functions.pdf_surface_create(path, width, height);
    int status = functions.surface_status(surface);
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(why, size, "%s", functions.status_to_string(status));
        functions.surface_destroy(surface);
        return NULL;
    }
    functions.pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title);
    functions.pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Hooray");
    hooray_pdf *pdf = calloc(1, sizeof(hooray_pdf));
    if (pdf == NULL) {
        snprintf(why, size, "out of memory");
        functions.surface_destroy(surface);
        return NULL;
    }
    pdf->surface = surface;
    pdf->cr = functions.create(surface);
    return pdf;
}

void hooray_pdf_rectangle(hooray_pdf *pdf, double x, double y, double width, double height, double red,
                          double green, double blue) {
    functions.set_source_rgb(pdf->cr, red, green, blue);
    functions.rectangle(pdf->cr, x, y, width, height);
    functions.fill(pdf->cr);
}

// A layout of `text` in `font`, wrapped at `width` points when over 0.
static PangoLayout *layout(hooray_pdf *pdf, const char *text, const char *font, double width) {
    PangoLayout *made = functions.create_layout(pdf->cr);
    PangoFontDescription *description = functions.font_description_from_string(font);
    functions.layout_set_font_description(made, description);
    functions.font_description_free(description);
    if (width > 0) {
        functions.layout_set_width(made, (int)(width * PANGO_SCALE));
        functions.layout_set_wrap(made, PANGO_WRAP_WORD_CHAR);
    }
    functions.layout_set_text(made, text, -1);
    return made;
}

double hooray_pdf_text(hooray_pdf *pdf, const char *text, const char *font, double x, double y, double width,
                       double red, double green, double blue) {
    PangoLayout *made = layout(pdf, text, font, width);
    functions.set_source_rgb(pdf->cr, red, green, blue);
    functions.move_to(pdf->cr, x, y);
    functions.show_layout(pdf->cr, made);
    int layout_width = 0, layout_height = 0;
    functions.layout_get_size(made, &layout_width, &layout_height);
    functions.object_unref(made);
    return (double)layout_height / PANGO_SCALE;
}

double hooray_pdf_text_width(hooray_pdf *pdf, const char *text, const char *font) {
    PangoLayout *made = layout(pdf, text, font, 0);
    int layout_width = 0, layout_height = 0;
    functions.layout_get_size(made, &layout_width, &layout_height);
    functions.object_unref(made);
    return (double)layout_width / PANGO_SCALE;
}

int hooray_pdf_finish(hooray_pdf *pdf, char *why, size_t size) {
    functions.show_page(pdf->cr);
    int status = functions.status(pdf->cr);
    functions.destroy(pdf->cr);
    functions.surface_finish(pdf->surface);
    if (status == CAIRO_STATUS_SUCCESS) status = functions.surface_status(pdf->surface);
    functions.surface_destroy(pdf->surface);
    free(pdf);
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(why, size, "%s", functions.status_to_string(status));
        return 0;
    }
    return 1;
}
