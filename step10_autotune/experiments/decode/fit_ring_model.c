/* fit_ring_model.c — the tree's chooser.h as a shared library whose constants are variables, for
 * fit_ring.py (beside this): it loads the measured runs once, then prices them and scores a set of
 * constants as often as the search asks.  Compiled by fit_ring.py against a copy of chooser.h in which
 * each fitted CHOOSER_* constant reads chooser_th[i] (and, with the ring's feed, the feed line is
 * replaced).  Plain C, no GPU. */
#include <math.h>
#include <stdio.h>
#include <string.h>

double chooser_th[32];   /* the constants, in fit_ring.py's NAMES order */

#include "hd.h"
#include "chooser.h"

#define SLOTS 20   /* 5 configurations x 4 plans: dp, sk, sk_l2, sk_cap */
#define MAX_RUNS 2048

static int n_runs, run_mnk[MAX_RUNS][3], run_gpu[MAX_RUNS], run_stages64[MAX_RUNS];   /* 64x64's ring: 8, or ring_cut.sh's 13 */
static double run_us[MAX_RUNS][SLOTS];   /* measured, 0 where not run */
static const chooser_device gpus[2] = {{132, 62914560.0, 4814.3}, {132, 52428800.0, 3352.0}};   /* H200, H100 */

static int plan_slot(const chooser_estimate *e)
{
    const char *p = chooser_plan_name(e);
    return e->config * 4 + (!strcmp(p, "dp") ? 0 : !strcmp(p, "sk") ? 1 : !strcmp(p, "sk_l2") ? 2 : 3);
}

/* Every candidate's prediction at run r, by slot (0: not a candidate); returns the pick's slot. */
static int price(int r, double *pred)
{
    const chooser_config menu[5] = {
        {"64x64", 64, 64, CHOOSER_KT_US_64x64, 1, 1, run_stages64[r]},       {"64x128", 64, 128, CHOOSER_KT_US_64x128, 1, 2, 8},
        {"128x128", 128, 128, CHOOSER_KT_US_128x128, 1, 2, 6}, {"128x192", 128, 192, CHOOSER_KT_US_128x192, 1, 2, 5},
        {"128x256c", 128, 256, CHOOSER_KT_US_128x256c, 2, 2, 4}};   /* experiments/menu_rings.h */
    chooser_estimate e[CHOOSER_MAX_CANDIDATES];
    const int n = chooser_candidates(run_mnk[r][0], run_mnk[r][1], run_mnk[r][2], menu, 5, -1, SK_MODE_AUTO,
                                     &gpus[run_gpu[r]], e);
    for (int s = 0; s < SLOTS; ++s) pred[s] = 0;
    for (int i = 0; i < n; ++i) if (pred[plan_slot(&e[i])] == 0) pred[plan_slot(&e[i])] = e[i].t_us;
    return plan_slot(&e[chooser_pick(e, n)]);
}

int load(int m, int n, int k, int gpu, int stages64, const double *us)
{
    if (n_runs == MAX_RUNS) return -1;
    run_mnk[n_runs][0] = m, run_mnk[n_runs][1] = n, run_mnk[n_runs][2] = k, run_gpu[n_runs] = gpu, run_stages64[n_runs] = stages64;
    memcpy(run_us[n_runs], us, sizeof run_us[0]);
    return n_runs++;
}

void clear(void) { n_runs = 0; }

/* The fit's loss over runs with use[r] set: log-time error squared for the contenders (within `cut` of
 * the run's best), and for the far ones only a prediction under cut x best, weighted by `hinge`
 * (fit_chooser.py's rules). */
double loss(const double *th, int n_th, const int *use, double cut, double hinge)
{
    memcpy(chooser_th, th, sizeof th[0] * n_th);
    double L = 0, pred[SLOTS];
    for (int r = 0; r < n_runs; ++r) {
        if (!use[r]) continue;
        price(r, pred);
        double best = 1e30;
        for (int s = 0; s < SLOTS; ++s) if (run_us[r][s] > 0 && run_us[r][s] < best) best = run_us[r][s];
        for (int s = 0; s < SLOTS; ++s) {
            if (run_us[r][s] <= 0 || pred[s] <= 0) continue;
            if (run_us[r][s] <= cut * best) { const double d = log(pred[s] / run_us[r][s]); L += d * d; }
            else { const double h = log(pred[s] / (cut * best)); if (h < 0) L += hinge * h * h; }
        }
    }
    return L;
}

/* The pick at run r under th, its measured time over the best measured (0 when the pick was not run). */
double judge(const double *th, int n_th, int r, int *pick)
{
    memcpy(chooser_th, th, sizeof th[0] * n_th);
    double pred[SLOTS], best = 1e30;
    *pick = price(r, pred);
    for (int s = 0; s < SLOTS; ++s) if (run_us[r][s] > 0 && run_us[r][s] < best) best = run_us[r][s];
    return run_us[r][*pick] > 0 ? best / run_us[r][*pick] : 0;
}

/* For fit_ring.py's SHOW: every candidate's prediction at run r under the constants loss() set last. */
int price_run(int r, double *pred) { return price(r, pred); }
