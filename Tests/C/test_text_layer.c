/* Text layers (S7.2), measured on the pixels they draw (white text on the
   display's black): alignment, wrapping, truncation, right-to-left and
   complex-script shaping (Arabic joining, a Devanagari conjunct), fonts by
   name, animated fontSize and foregroundColor, and the content cache.
   Fonts: DejaVu Sans (fonts-dejavu-core, also Arabic) and Lohit
   Devanagari (fonts-lohit-deva), both installed by `make deps`.
   Reference images: the same strings laid out by Pango directly in this
   test and drawn with cairo at the layer's place; they check that
   LayerKit's text lands where, how large and in the colour it should.
   Tolerance: channels within 3, anti-aliased edge pixels within 64 (at
   most 600), no other pixel off. */
#include "support/lktest.h"
#include "support/lkt_cairo.h"
#include <math.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 300
#define H 120

static lk_display *display;
static lk_layer *root;

typedef struct ink { int x0, y0, x1, y1, pixels; } ink;

/* the box of pixels brighter than 64 in red */
static ink measure(void)
{
    ink k = {W, H, -1, -1, 0};
    uint8_t *px = lkt_render_and_read(display, "render");
    int x, y;
    if (!px) return k;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            if (px[(y * W + x) * 4] > 64) {
                if (x < k.x0) k.x0 = x;
                if (y < k.y0) k.y0 = y;
                if (x > k.x1) k.x1 = x;
                if (y > k.y1) k.y1 = y;
                k.pixels++;
            }
    free(px);
    return k;
}

static lk_layer *text_layer(const char *utf8, const char *font, double size, double width)
{
    lk_layer *t = lk_text_layer_create();
    lk_layer_set_frame(t, lk_rect_make(0, 0, width, H));
    lk_text_layer_set_string(t, utf8);
    if (font) lk_text_layer_set_font(t, font);
    lk_text_layer_set_font_size(t, size);
    lk_layer_add_sublayer(root, t);
    lk_transaction_flush();
    return t;
}

static void drop(lk_layer *t)
{
    lk_layer_remove_from_superlayer(t);
    lk_release(t);
    lk_transaction_flush();
}

static void test_alignment(void)
{
    lk_layer *t = text_layer("Hello, world", NULL, 24, W);
    ink left = measure();
    LKT_CHECK(left.pixels > 200 && left.x0 <= 3 && left.y0 >= 0 && left.y1 < 40,
              "S7.2 natural alignment of Latin text starts at the left, at the top",
              "ink %d..%d x %d..%d (%d px)", left.x0, left.x1, left.y0, left.y1, left.pixels);
    lk_text_layer_set_alignment_mode(t, LK_TEXT_ALIGNMENT_RIGHT);
    ink right = measure();
    LKT_CHECK(right.x1 >= W - 4 && abs((right.x1 - right.x0) - (left.x1 - left.x0)) <= 1,
              "S7.2 right alignment ends the line at the right edge", "ink %d..%d", right.x0, right.x1);
    lk_text_layer_set_alignment_mode(t, LK_TEXT_ALIGNMENT_CENTER);
    ink centre = measure();
    LKT_CHECK(abs(centre.x0 - (W - 1 - centre.x1)) <= 2, "S7.2 centre alignment leaves equal margins",
              "ink %d..%d", centre.x0, centre.x1);
    lk_text_layer_set_foreground_color(t, lk_color_make(0, 1, 0, 1));
    ink green = measure();
    LKT_CHECK(green.pixels == 0, "S7.2 foregroundColor: green text has no red", "%d red pixels", green.pixels);
    drop(t);
}

/* S7.2: lines of unwrapped text align in the box each on its own: a
   centred line shorter than another was drawn left of the centre by half
   the difference (Pango aligns lines within the widest, and that offset
   stayed in), a right-aligned one short of the edge. */
static ink measure_rows(int y0, int y1)
{
    ink k = {W, H, -1, -1, 0};
    uint8_t *px = lkt_render_and_read(display, "render");
    if (!px) return k;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < W; x++)
            if (px[(y * W + x) * 4] > 64) {
                if (x < k.x0) k.x0 = x;
                if (x > k.x1) k.x1 = x;
                k.pixels++;
            }
    free(px);
    return k;
}

static void test_alignment_of_lines(void)
{
    lk_layer *t = text_layer("ii\nwide wide wide line", NULL, 16, W);
    lk_text_layer_set_alignment_mode(t, LK_TEXT_ALIGNMENT_CENTER);
    lk_transaction_flush();
    ink shorter = measure_rows(0, 19), wider = measure_rows(19, 40);
    LKT_CHECK(shorter.pixels > 0 && abs(shorter.x0 - (W - 1 - shorter.x1)) <= 2 &&
                  abs(wider.x0 - (W - 1 - wider.x1)) <= 2,
              "S7.2 centred lines of different widths each leave equal margins",
              "short line ink %d..%d, long line %d..%d", shorter.x0, shorter.x1, wider.x0, wider.x1);
    lk_text_layer_set_alignment_mode(t, LK_TEXT_ALIGNMENT_RIGHT);
    lk_transaction_flush();
    shorter = measure_rows(0, 19);
    wider = measure_rows(19, 40);
    LKT_CHECK(shorter.x1 >= W - 4 && wider.x1 >= W - 4, "S7.2 right-aligned lines of different widths each end at the right edge",
              "short line ink %d..%d, long line %d..%d", shorter.x0, shorter.x1, wider.x0, wider.x1);
    drop(t);
}

/* S7.2, S8.1: a label of 12,500 lines draws as the lines its box shows
   (the same pixels as its first 20 lines alone) and in time proportionate
   to them: Pango lays paragraphs out in time growing with the square of
   their number (16 s for this frame), so only those that can show are
   laid out. The bound is 5 s of CPU, far above its few milliseconds; not
   under valgrind. */
static void test_many_lines(void)
{
    size_t n = 12500 * 80;
    char *text = (char *)malloc(n + 1);
    for (size_t i = 0; i < n; i++) text[i] = i % 80 == 79 ? '\n' : "abcd efgh "[i % 10];
    text[n] = 0;
    char first[20 * 80 + 1];
    memcpy(first, text, 20 * 80);
    first[20 * 80] = 0;
    lk_layer *t = text_layer(first, NULL, 12, W);
    uint8_t *few = lkt_render_and_read(display, "render");
    lk_text_layer_set_string(t, text);
    lk_transaction_flush();
    clock_t start = clock();
    uint8_t *many = lkt_render_and_read(display, "render");
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    LKT_CHECK(few && many && memcmp(few, many, (size_t)W * H * 4) == 0,
              "S7.2 a label of 12,500 lines draws what its first 20 alone draw (the box shows fewer)", "%s",
              few && many ? "pixels differ" : "no frame");
    const char *preload = getenv("LD_PRELOAD");
    if (!(preload && strstr(preload, "vgpreload")))
        LKT_CHECK(seconds < 5, "S8.1 a label of 12,500 lines draws in time proportionate to what shows (under 5 s)",
                  "%.2f s", seconds);
    free(few);
    free(many);
    free(text);
    drop(t);
}

/* S7.2: wrapped text of one long paragraph (no line breaks: a log, pasted
   text) draws what its start alone draws: from about 190,000 characters at
   20 points its width overflowed Pango's 32-bit units and it was drawn as
   one unwrapped line past the bounds. The same truncated at its end. */
static void test_long_paragraph(void)
{
    size_t n = 1000000;
    char *text = (char *)malloc(n + 1);
    for (size_t i = 0; i < n; i++) text[i] = i % 10 == 9 ? ' ' : (char)('a' + i % 26);
    text[n] = 0;
    char first[2001];
    memcpy(first, text, 2000);
    first[2000] = 0;
    lk_layer *t = text_layer(first, NULL, 20, 200);
    lk_text_layer_set_wrapped(t, true);
    lk_transaction_flush();
    uint8_t *start = lkt_render_and_read(display, "render");
    ink few = measure();
    lk_text_layer_set_string(t, text);
    lk_transaction_flush();
    uint8_t *all = lkt_render_and_read(display, "render");
    LKT_CHECK(few.y1 > 90 && few.x1 < 200, "S7.2 (2,000 characters wrap into lines that fill the box)",
              "ink %d..%d x %d..%d", few.x0, few.x1, few.y0, few.y1);
    LKT_CHECK(start && all && memcmp(start, all, (size_t)W * H * 4) == 0,
              "S7.2 a wrapped paragraph of 1,000,000 characters draws what its first 2,000 draw", "%s",
              start && all ? "pixels differ" : "no frame");
    free(all);
    for (size_t k = 190000; k <= 200000; k += 10000) {
        text[k] = 0;
        lk_text_layer_set_string(t, text);
        lk_transaction_flush();
        all = lkt_render_and_read(display, "render");
        LKT_CHECK(start && all && memcmp(start, all, (size_t)W * H * 4) == 0,
                  "S7.2 a wrapped paragraph of 190,000 or 200,000 characters draws what its first 2,000 draw", "%zu: %s",
                  k, start && all ? "pixels differ" : "no frame");
        free(all);
        text[k] = k % 10 == 9 ? ' ' : (char)('a' + k % 26);
    }
    lk_text_layer_set_truncation_mode(t, LK_TRUNCATION_END);
    lk_text_layer_set_string(t, first);
    lk_transaction_flush();
    free(start);
    start = lkt_render_and_read(display, "render");
    lk_text_layer_set_string(t, text);
    lk_transaction_flush();
    all = lkt_render_and_read(display, "render");
    LKT_CHECK(start && all && memcmp(start, all, (size_t)W * H * 4) == 0,
              "S7.2 truncated at its end, the 1,000,000 characters draw what their first 2,000 do", "%s",
              start && all ? "pixels differ" : "no frame");
    free(all);
    free(start);
    free(text);
    drop(t);
}

static void test_wrapping_and_truncation(void)
{
    const char *text = "The quick brown fox jumps over the lazy dog again and again";
    lk_layer *t = text_layer(text, NULL, 20, 150);
    ink one = measure();
    LKT_CHECK(one.y1 < 30 && one.x1 >= 145, "S7.2 unwrapped text stays on one line, cut at the bounds",
              "ink %d..%d x %d..%d", one.x0, one.x1, one.y0, one.y1);
    lk_text_layer_set_wrapped(t, true);
    ink wrapped = measure();
    LKT_CHECK(wrapped.y1 > 60 && wrapped.x1 < 150, "S7.2 wrapped text breaks into lines within the width",
              "ink %d..%d x %d..%d", wrapped.x0, wrapped.x1, wrapped.y0, wrapped.y1);
    lk_text_layer_set_wrapped(t, false);
    lk_text_layer_set_truncation_mode(t, LK_TRUNCATION_END);
    ink cut = measure();
    LKT_CHECK(cut.y1 < 30 && cut.x1 < 150 && cut.x1 > 100, "S7.2 truncation at the end: one line ending in an ellipsis within the bounds",
              "ink %d..%d x %d..%d", cut.x0, cut.x1, cut.y0, cut.y1);
    drop(t);
}

/* S7.2: glyphs advance by the font's fractional widths, as Core Text
   lays text out: 50 "i"s of DejaVu Sans at 13 pt are 50 x 0.2778 em =
   180.6 points, so they fit a 190-point layer on one line, untruncated.
   With each advance rounded to a whole point (Pango's default) they were
   200 points: truncated, or wrapped onto a second line. */
static void test_fractional_advances(void)
{
    char is[51];
    memset(is, 'i', 50);
    is[50] = 0;
    lk_layer *t = text_layer(is, "DejaVu Sans", 13, 190);
    lk_text_layer_set_truncation_mode(t, LK_TRUNCATION_END);
    lk_text_layer_set_foreground_color(t, lk_color_make(1, 1, 1, 1));
    ink cut = measure();
    LKT_CHECK(cut.x1 >= 176 && cut.x1 <= 184 && cut.y1 < 20,
              "S7.2 fractional advances: 50 i at 13 pt end near 180.6 points, untruncated", "ink %d..%d x %d..%d",
              cut.x0, cut.x1, cut.y0, cut.y1);
    lk_text_layer_set_truncation_mode(t, LK_TRUNCATION_NONE);
    lk_text_layer_set_wrapped(t, true);
    ink wrapped = measure();
    LKT_CHECK(wrapped.y1 < 20, "S7.2 ... and fit on one line when wrapped", "ink rows %d..%d", wrapped.y0, wrapped.y1);
    /* NULL sets the font back to the default, as nil does (it was refused) */
    lk_text_layer_set_font(t, "DejaVu Serif");
    LKT_CHECK(lk_text_layer_set_font(t, NULL) == LK_OK && strcmp(lk_text_layer_get_font(t), "DejaVu Sans") == 0,
              "S7.2 a NULL font sets the default back", "%s", lk_last_error());
    /* ... and so does none by key path (a type mismatch before) */
    lk_text_layer_set_font(t, "DejaVu Serif");
    lk_status s = lk_layer_set_value(t, "font", lk_value_none());
    LKT_CHECK(s == LK_OK && strcmp(lk_text_layer_get_font(t), "DejaVu Sans") == 0,
              "S1.6 font set to none by key path sets the default back", "%s (%s), font %s", lkt_status_name(s),
              lk_last_error(), lk_text_layer_get_font(t));
    drop(t);
}

static void test_scripts(void)
{
    /* Arabic is right-to-left: natural alignment puts it at the right */
    lk_layer *t = text_layer("\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7", "DejaVu Sans", 28, W); /* مرحبا */
    ink rtl = measure();
    LKT_CHECK(rtl.pixels > 100 && rtl.x1 >= W - 4 && rtl.x0 > W / 2,
              "S7.2 right-to-left text aligns naturally to the right", "ink %d..%d", rtl.x0, rtl.x1);
    drop(t);
    /* joining: three behs shaped together are narrower than three isolated ones */
    t = text_layer("\xd8\xa8", "DejaVu Sans", 40, W); /* ب */
    ink one = measure();
    drop(t);
    t = text_layer("\xd8\xa8\xd8\xa8\xd8\xa8", "DejaVu Sans", 40, W);
    ink joined = measure();
    drop(t);
    LKT_CHECK(joined.pixels > 0 && (joined.x1 - joined.x0 + 1) < 3 * (one.x1 - one.x0 + 1) * 3 / 4,
              "S7.2 Arabic letters join (shaped, not isolated forms side by side)",
              "one beh %d px wide, three %d px wide", one.x1 - one.x0 + 1, joined.x1 - joined.x0 + 1);
    /* Devanagari: ka + virama + ssa forms the conjunct ksha, narrower than
       the half form and ssa side by side */
    t = text_layer("\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7", "Lohit Devanagari", 40, W); /* क्ष */
    ink conjunct = measure();
    drop(t);
    t = text_layer("\xe0\xa4\x95\xe0\xa5\x8d", "Lohit Devanagari", 40, W); /* क् */
    ink half = measure();
    drop(t);
    t = text_layer("\xe0\xa4\xb7", "Lohit Devanagari", 40, W); /* ष */
    ink ssa = measure();
    drop(t);
    int sum = (half.x1 - half.x0 + 1) + (ssa.x1 - ssa.x0 + 1);
    LKT_CHECK(conjunct.pixels > 0 && half.pixels > 0 && ssa.pixels > 0 && (conjunct.x1 - conjunct.x0 + 1) < sum * 3 / 4,
              "S7.2 Devanagari ka+virama+ssa is shaped into one conjunct",
              "conjunct %d px wide, parts %d px together", conjunct.x1 - conjunct.x0 + 1, sum);
    /* i-matra is written after ka but drawn before it: its stem is at the left */
    t = text_layer("\xe0\xa4\x95\xe0\xa4\xbf", "Lohit Devanagari", 40, W); /* कि */
    ink ki = measure();
    drop(t);
    t = text_layer("\xe0\xa4\x95", "Lohit Devanagari", 40, W); /* क */
    ink ka = measure();
    drop(t);
    LKT_CHECK(ki.pixels > ka.pixels && ki.x1 - ki.x0 > ka.x1 - ka.x0 && ki.y0 < ka.y0,
              "S7.2 Devanagari i-matra is reordered and drawn (wider, with its loop above)",
              "ki %d..%d top %d, ka %d..%d top %d", ki.x0, ki.x1, ki.y0, ka.x0, ka.x1, ka.y0);
}


/* A layout of utf8 for cr with the settings the text layer uses (no
   hinting, fractional glyph positions), in the font at size. */
static PangoLayout *reference_layout(cairo_t *cr, const char *utf8, const char *font, double size)
{
    PangoLayout *layout = pango_cairo_create_layout(cr);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), options);
    cairo_font_options_destroy(options);
    pango_context_set_round_glyph_positions(pango_layout_get_context(layout), FALSE);
    pango_layout_context_changed(layout);
    PangoFontDescription *desc = pango_font_description_from_string(font);
    pango_font_description_set_absolute_size(desc, size * PANGO_SCALE);
    pango_layout_set_font_description(layout, desc);
    pango_font_description_free(desc);
    pango_layout_set_text(layout, utf8, -1);
    return layout;
}

/* The string drawn by Pango straight onto the reference, at (x, y), in
   the colour, with the settings the text layer uses (no hinting). */
static void pango_reference(cairo_t *cr, const char *utf8, const char *font, double size, double x, double y,
                            double r, double g, double b)
{
    PangoLayout *layout = reference_layout(cr, utf8, font, size);
    PangoLayoutIter *it = pango_layout_get_iter(layout);
    double baseline = (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
    pango_layout_iter_free(it);
    cairo_set_source_rgb(cr, r, g, b);
    cairo_move_to(cr, x, y + baseline);
    pango_cairo_show_layout_line(cr, pango_layout_get_line_readonly(layout, 0));
    g_object_unref(layout);
}

/* A word too long for its line, wrapped: Core Text breaks it between
   characters and adds nothing (no hyphenation by default). The reference
   is Pango's own wrapping of the layout with hyphens left out; Pango's
   default put a hyphen after each piece ("Supercalifragili-"). */
static void test_wrapped_long_word(void)
{
    static const lkt_tolerance text_tolerance = {3, 64, 600, 0};
    const char *word = "Supercalifragilisticexpialidocious";
    lk_layer *t = lk_text_layer_create();
    lk_layer_set_frame(t, lk_rect_make(10, 5, 120, 110));
    lk_text_layer_set_string(t, word);
    lk_text_layer_set_font(t, "DejaVu Sans");
    lk_text_layer_set_font_size(t, 20);
    lk_text_layer_set_wrapped(t, true);
    lk_text_layer_set_alignment_mode(t, LK_TEXT_ALIGNMENT_LEFT);
    lk_layer_add_sublayer(root, t);
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time());

    cairo_t *cr = lkt_cairo_begin(W, H);
    cairo_rectangle(cr, 10, 5, 120, 110);
    cairo_clip(cr);
    PangoLayout *layout = reference_layout(cr, word, "DejaVu Sans", 20);
    PangoAttrList *attributes = pango_attr_list_new();
    pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(FALSE));
    pango_layout_set_attributes(layout, attributes);
    pango_attr_list_unref(attributes);
    pango_layout_set_width(layout, 120 * PANGO_SCALE);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    int lines = pango_layout_get_line_count(layout);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_move_to(cr, 10, 5);
    pango_cairo_show_layout(cr, layout);
    g_object_unref(layout);
    LKT_CHECK(lines >= 3, "the long word needs several lines at this width", "%d lines", lines);
    lkt_check_against_cairo("S7.2 a wrapped word too long for its line breaks between characters, no hyphen added "
                            "(reference image)", display, cr, text_tolerance);
    drop(t);
}

static void test_reference_images(void)
{
    static const lkt_tolerance text_tolerance = {3, 64, 600, 0};
    static const struct { const char *name, *text, *font; } cases[] = {
        {"S7.2 Arabic shaped and joined (reference image)",
         "\xd8\xa7\xd9\x84\xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a\xd8\xa9 \xd9\x84\xd8\xba\xd8\xa9", "DejaVu Sans"}, /* العربية لغة */
        {"S7.2 Devanagari conjuncts and matras (reference image)",
         "\xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\xa8\xe0\xa5\x8d\xe0\xa4\xa6\xe0\xa5\x80 \xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7", "Lohit Devanagari"}, /* हिन्दी क्ष */
        {"S7.2 Latin text (reference image)", "Quick fjord, 1234", "DejaVu Sans"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        lk_layer *t = lk_text_layer_create();
        lk_layer_set_frame(t, lk_rect_make(10, 20, 280, 80));
        lk_text_layer_set_string(t, cases[i].text);
        lk_text_layer_set_font(t, cases[i].font);
        lk_text_layer_set_font_size(t, 30);
        lk_text_layer_set_foreground_color(t, lk_color_make(1, 0.9, 0.3, 1));
        lk_text_layer_set_alignment_mode(t, LK_TEXT_ALIGNMENT_LEFT);
        lk_layer_add_sublayer(root, t);
        lk_transaction_flush();
        lk_display_render_frame_at(display, lk_media_time());
        cairo_t *cr = lkt_cairo_begin(W, H);
        cairo_rectangle(cr, 10, 20, 280, 80); /* a layer's drawing stays in its bounds */
        cairo_clip(cr);
        pango_reference(cr, cases[i].text, cases[i].font, 30, 10, 20, 1, 0.9, 0.3);
        lkt_check_against_cairo(cases[i].name, display, cr, text_tolerance);
        drop(t);
    }
}

static double begin_of(lk_layer *l, const char *key)
{
    lk_animation *a = lk_layer_get_animation(l, key);
    return a ? lk_animation_get_begin_time(a) : NAN;
}

static void test_animation_and_cache(void)
{
    lk_layer *t = text_layer("Animated", NULL, 20, W);
    lk_display_stats s0, s1;
    measure();
    lk_transaction_begin();
    lk_transaction_set_animation_duration(1);
    lk_transaction_set_animation_timing_function(lk_timing_function_named(LK_TIMING_LINEAR));
    lk_text_layer_set_font_size(t, 40);
    lk_text_layer_set_foreground_color(t, lk_color_make(0, 0, 0, 1));
    lk_transaction_commit();
    double b = begin_of(t, "fontSize");
    lk_layer *p = lk_layer_copy_presentation_at(t, b + 0.5);
    LKT_CHECK_NEAR("S7.2 fontSize half-way from 20 to 40", p ? lk_text_layer_get_font_size(p) : -1, 30, 1e-9);
    LKT_CHECK_COLOR("S7.2 foregroundColor half-way from white to black", lk_text_layer_get_foreground_color(p),
                    lk_color_make(0.5, 0.5, 0.5, 1), 1e-9);
    lk_release(p);
    lk_display_render_frame_at(display, b + 2);
    s0 = lkt_stats(display);
    lk_display_render_frame_at(display, b + 3);
    lk_display_render_frame_at(display, b + 4);
    s1 = lkt_stats(display);
    LKT_CHECK(s1.content_rasterizations == s0.content_rasterizations,
              "S7.2 frames with unchanged text rasterize nothing", "%llu rasterizations",
              (unsigned long long)(s1.content_rasterizations - s0.content_rasterizations));
    LKT_CHECK(strcmp(lk_text_layer_get_font(t), "DejaVu Sans") == 0, "S7.2 the default font is DejaVu Sans", "got %s",
              lk_text_layer_get_font(t));
    LKT_CHECK_ERROR("S7.2 a text call on a shape layer is refused",
                    lk_text_layer_set_string(root, "x"), LK_ERROR_INVALID_ARGUMENT, "text layer");
    drop(t);
}

/* S8.1: text in bounds near the largest doubles draws nothing and crashes
   nothing (the picture's size in pixels trapped converting to an integer). */
static void test_absurd_bounds(void)
{
    lk_layer *t = text_layer("Far too wide", NULL, 20, 1e300);
    lk_status s = lk_display_render_frame_at(display, lk_media_time());
    LKT_CHECK(s == LK_OK, "S8.1 a text layer 1e300 points wide renders (as nothing) without a crash", "%s",
              lkt_status_name(s));
    lk_layer_set_frame(t, lk_rect_make(-1.7e308, 0, 1.7e308, 1.7e308));
    s = lk_display_render_frame_at(display, lk_media_time());
    LKT_CHECK(s == LK_OK, "S8.1 and one whose edges overflow to infinity too", "%s", lkt_status_name(s));
    drop(t);
}

/* S8.1: a font 65,536 pixels high made FreeType fail, and cairo then failed
   every size of that face drawn before, for the rest of the process: text
   at 20 points stopped drawing. Such a size draws nothing, and the rest
   goes on drawing. */
static void test_absurd_font_size(void)
{
    lk_layer *a = text_layer("Hello", NULL, 20, W);
    int before = measure().pixels;
    LKT_CHECK(before > 50, "S7.2 20-point text draws", "%d pixels", before);
    lk_layer *big = text_layer("Hello", NULL, 65536, W);
    lk_status s = lk_display_render_frame_at(display, lk_media_time());
    LKT_CHECK(s == LK_OK, "S8.1 a 65,536-point font renders without an error", "%s", lkt_status_name(s));
    drop(big);
    lk_layer *scaled = text_layer("Hello", NULL, 40000, W);
    lk_layer_set_contents_scale(scaled, 2);
    lk_transaction_flush();
    lk_display_render_frame_at(display, lk_media_time());
    drop(scaled);
    lk_text_layer_set_string(a, "World");
    lk_transaction_flush();
    int after = measure().pixels;
    LKT_CHECK(after > 50, "S8.1 after fonts of 65,536 and 80,000 pixels, 20-point text still draws", "%d pixels", after);
    drop(a);
}

int main(void)
{
    display = lkt_open_display(W, H, "open a software display");
    if (!display) return lkt_finish();
    root = lk_layer_create();
    lk_layer_set_frame(root, lk_rect_make(0, 0, W, H));
    lk_display_set_root_layer(display, root);
    /* text layers come and go under the root: shown at once, not through
       the root's built-in sublayers fade (S3.3) */
    lk_layer_set_action(root, "sublayers", lk_action_null());
    lk_transaction_set_disable_actions(true);
    test_alignment();
    test_alignment_of_lines();
    test_many_lines();
    test_long_paragraph();
    test_wrapping_and_truncation();
    test_fractional_advances();
    test_scripts();
    test_reference_images();
    test_wrapped_long_word();
    test_animation_and_cache();
    test_absurd_bounds();
    test_absurd_font_size();
    lk_display_close(display);
    lk_release(root);
    return lkt_finish();
}
