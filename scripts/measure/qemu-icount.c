/* A qemu-user plugin that counts the guest instructions a program runs, to
 * measure the aarch64 build under emulation (docs/platforms.md): each
 * translated block adds its instruction count to one counter each time it
 * runs, and the total is printed to stderr at exit.
 *
 *   gcc -O2 -shared -fPIC -o target/qemu-icount.so scripts/measure/qemu-icount.c
 *   qemu-aarch64 -L ARM64_ROOT -plugin target/qemu-icount.so \
 *       target/aarch64-unknown-linux-gnu/release/c4 bench --no-book SET
 *
 * Needs a qemu-user built with plugins: Debian's `qemu-user` (qemu-aarch64),
 * not the static qemu-user-static. The declarations are those of qemu's
 * plugin API, version 1 (qemu 7.2), of which this uses four calls. A
 * program of several threads counts them all, a few additions lost where
 * two threads add at once (the counter is not atomic). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_translated)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*at_exit)(qemu_plugin_id_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_translated);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *, enum qemu_plugin_op,
                                              void *, uint64_t);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, at_exit, void *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t executed;

static void count_block(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed,
                                             qemu_plugin_tb_n_insns(tb));
}

static void report(qemu_plugin_id_t id, void *unused) {
    (void)id;
    (void)unused;
    fprintf(stderr, "guest instructions: %llu\n", (unsigned long long)executed);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const struct qemu_info_t *info,
                                                               int argc, char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, count_block);
    qemu_plugin_register_atexit_cb(id, report, NULL);
    return 0;
}
