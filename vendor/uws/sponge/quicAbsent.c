/*
 * Sponge: the uWebSockets.js addon always exports H3App, so its C++ side calls uSockets' QUIC functions; this build
 * has no QUIC (lsquic and BoringSSL are not vendored, and Sponge serves no HTTP/3). These stand in for them, so the
 * addon links and loads; src/rpc/uws.ts replaces H3App (and SSLApp: built without TLS) with a function that throws,
 * so none of them is reached. Compiled with LIBUS_USE_QUIC, so that quic.h checks every signature.
 */
#include <stdio.h>
#include <stdlib.h>
#include "quic.h"

static void absent(const char *what) {
    fprintf(stderr, "uWebSockets.js (vendor/uws): %s called, but this build has no QUIC\n", what);
    abort();
}

void *us_quic_stream_ext(us_quic_stream_t *s) { (void) s; absent(__func__); return NULL; }
int us_quic_stream_write(us_quic_stream_t *s, char *data, int length) { (void) s; (void) data; (void) length; absent(__func__); return 0; }
int us_quic_stream_shutdown(us_quic_stream_t *s) { (void) s; absent(__func__); return 0; }
int us_quic_stream_shutdown_read(us_quic_stream_t *s) { (void) s; absent(__func__); return 0; }
void us_quic_stream_close(us_quic_stream_t *s) { (void) s; absent(__func__); }
int us_quic_socket_context_get_header(us_quic_socket_context_t *context, int index, char **name, int *name_length, char **value, int *value_length) {
    (void) context; (void) index; (void) name; (void) name_length; (void) value; (void) value_length; absent(__func__); return 0;
}
void us_quic_socket_context_set_header(us_quic_socket_context_t *context, int index, const char *key, int key_length, const char *value, int value_length) {
    (void) context; (void) index; (void) key; (void) key_length; (void) value; (void) value_length; absent(__func__);
}
void us_quic_socket_context_send_headers(us_quic_socket_context_t *context, us_quic_stream_t *s, int num, int has_body) {
    (void) context; (void) s; (void) num; (void) has_body; absent(__func__);
}
us_quic_socket_context_t *us_create_quic_socket_context(struct us_loop_t *loop, us_quic_socket_context_options_t options, int ext_size) {
    (void) loop; (void) options; (void) ext_size; absent(__func__); return NULL;
}
us_quic_listen_socket_t *us_quic_socket_context_listen(us_quic_socket_context_t *context, const char *host, int port, int ext_size) {
    (void) context; (void) host; (void) port; (void) ext_size; absent(__func__); return NULL;
}
us_quic_socket_t *us_quic_socket_context_connect(us_quic_socket_context_t *context, const char *host, int port, int ext_size) {
    (void) context; (void) host; (void) port; (void) ext_size; absent(__func__); return NULL;
}
void us_quic_socket_create_stream(us_quic_socket_t *s, int ext_size) { (void) s; (void) ext_size; absent(__func__); }
us_quic_socket_t *us_quic_stream_socket(us_quic_stream_t *s) { (void) s; absent(__func__); return NULL; }
int us_quic_stream_is_client(us_quic_stream_t *s) { (void) s; absent(__func__); return 0; }
void us_quic_socket_context_on_stream_data(us_quic_socket_context_t *context, void (*cb)(us_quic_stream_t *s, char *data, int length)) { (void) context; (void) cb; absent(__func__); }
void us_quic_socket_context_on_stream_end(us_quic_socket_context_t *context, void (*cb)(us_quic_stream_t *s)) { (void) context; (void) cb; absent(__func__); }
void us_quic_socket_context_on_stream_headers(us_quic_socket_context_t *context, void (*cb)(us_quic_stream_t *s)) { (void) context; (void) cb; absent(__func__); }
void us_quic_socket_context_on_stream_open(us_quic_socket_context_t *context, void (*cb)(us_quic_stream_t *s, int is_client)) { (void) context; (void) cb; absent(__func__); }
void us_quic_socket_context_on_stream_close(us_quic_socket_context_t *context, void (*cb)(us_quic_stream_t *s)) { (void) context; (void) cb; absent(__func__); }
void us_quic_socket_context_on_open(us_quic_socket_context_t *context, void (*cb)(us_quic_socket_t *s, int is_client)) { (void) context; (void) cb; absent(__func__); }
void us_quic_socket_context_on_close(us_quic_socket_context_t *context, void (*cb)(us_quic_socket_t *s)) { (void) context; (void) cb; absent(__func__); }
void us_quic_socket_context_on_stream_writable(us_quic_socket_context_t *context, void (*cb)(us_quic_stream_t *s)) { (void) context; (void) cb; absent(__func__); }
void *us_quic_socket_context_ext(us_quic_socket_context_t *context) { (void) context; absent(__func__); return NULL; }
us_quic_socket_context_t *us_quic_socket_context(us_quic_socket_t *s) { (void) s; absent(__func__); return NULL; }
