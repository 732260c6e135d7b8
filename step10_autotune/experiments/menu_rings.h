/* menu_rings.h — kernel.cu's menu as chooser.h sees it, with the rings each configuration fits on the
 * H100 and the H200 (227 KiB of shared memory): for the experiments' CPU tools (sk_cap/picks.c,
 * fixup_writers/fit_more.c, decode/explain.c), which run the chooser without a GPU.  After chooser.h. */
#ifndef STEP10_EXPERIMENTS_MENU_RINGS_H
#define STEP10_EXPERIMENTS_MENU_RINGS_H
static const chooser_config menu[5] = {
    {"64x64", 64, 64, CHOOSER_KT_US_64x64, 1, 1, 13},      {"64x128", 64, 128, CHOOSER_KT_US_64x128, 1, 2, 8},
    {"128x128", 128, 128, CHOOSER_KT_US_128x128, 1, 2, 6}, {"128x192", 128, 192, CHOOSER_KT_US_128x192, 1, 2, 5},
    {"128x256c", 128, 256, CHOOSER_KT_US_128x256c, 2, 2, 4}};
#endif
