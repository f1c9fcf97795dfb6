// Cairo's PDF surface and Pango's text layout, loaded with dlopen the first time a PDF is written
// (`hooray review --pdf`), so that no other command maps them.
//
// Declared here without their headers: the few calls Hooray makes take opaque pointers, numbers and
// text, whose C ABI both libraries keep stable. Units are PostScript points (1/72 inch).
#ifndef HOORAY_PDF_H
#define HOORAY_PDF_H

#include <stddef.h>

typedef struct hooray_pdf hooray_pdf;

// Loads libcairo and libpangocairo (and what they need), once; 1 when ready, 0 with why not.
int hooray_pdf_load(char *why, size_t size);

// Starts a one-page PDF of `width` × `height` points at `path`; NULL with why not.
hooray_pdf *hooray_pdf_create(const char *path, double width, double height, const char *title, char *why,
                              size_t size);

// Fills a rectangle with a colour (0–1 each).
void hooray_pdf_rectangle(hooray_pdf *pdf, double x, double y, double width, double height, double red,
                          double green, double blue);

// Draws UTF-8 text with its top-left corner at (x, y), in `font` (Pango's form, such as "Sans Bold
// 14"), wrapped at `width` points when it is over 0; returns the height it took, in points.
double hooray_pdf_text(hooray_pdf *pdf, const char *text, const char *font, double x, double y, double width,
                       double red, double green, double blue);

// The width the text would take on one line, in points.
double hooray_pdf_text_width(hooray_pdf *pdf, const char *text, const char *font);

// Ends the page and writes the file; 1 when it was written, 0 with why not. Frees `pdf` either way.
int hooray_pdf_finish(hooray_pdf *pdf, char *why, size_t size);

#endif
