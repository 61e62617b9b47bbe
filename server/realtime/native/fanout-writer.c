// The realtime server's fan-out writer: one Node-API call writes one ready-made WebSocket frame to
// many sockets' file descriptors, each with one non-blocking send(2), in a single C loop.
//
//   writeEach(fds: Int32Array, frame: Uint8Array, written: Int32Array): undefined
//
// `written[i]` receives how many bytes of the frame went to `fds[i]`: the whole frame, or less when
// the socket's kernel buffer was full (EAGAIN) or the send failed (a reset or closed peer). The
// caller hands whatever is left to the socket's own stream (`socket.write`), which queues it, or
// surfaces the error as the socket's own error; the bytes keep their order because the caller only
// passes sockets with nothing queued (server/realtime/fanout-writer.ts; docs/realtime.md).
//
// Built by scripts/build-native.ts into build/native/; without it the server writes each socket
// through Node's stream, the same bytes at about twice the CPU (docs/performance.md, "Realtime").
#define NAPI_VERSION 8
#include <errno.h>
#include <node_api.h>
#include <stdint.h>
#include <sys/socket.h>

static napi_value type_error(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static int int32_array(napi_env env, napi_value value, int32_t **data, size_t *length) {
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return 0;
  napi_typedarray_type type;
  void *base = NULL;
  if (napi_get_typedarray_info(env, value, &type, length, &base, NULL, NULL) != napi_ok) return 0;
  if (type != napi_int32_array) return 0;
  *data = (int32_t *)base;
  return 1;
}

static napi_value write_each(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3)
    return type_error(env, "writeEach(fds, frame, written): three arguments");

  int32_t *fds = NULL, *written = NULL;
  size_t count = 0, slots = 0;
  if (!int32_array(env, argv[0], &fds, &count)) return type_error(env, "fds: an Int32Array");
  if (!int32_array(env, argv[2], &written, &slots)) return type_error(env, "written: an Int32Array");
  if (slots < count) return type_error(env, "written: as long as fds");

  bool is_typed = false;
  napi_typedarray_type type;
  size_t length = 0;
  void *frame = NULL;
  if (napi_is_typedarray(env, argv[1], &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, argv[1], &type, &length, &frame, NULL, NULL) != napi_ok ||
      type != napi_uint8_array)
    return type_error(env, "frame: a Uint8Array");
  if (length > INT32_MAX) return type_error(env, "frame: too long");

  for (size_t i = 0; i < count; i++) {
    size_t done = 0;
    while (done < length) {
      // MSG_NOSIGNAL: a closed peer is an EPIPE to report, not a SIGPIPE.
      ssize_t n = send(fds[i], (const char *)frame + done, length - done, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n > 0) {
        done += (size_t)n;
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        break;
      }
    }
    written[i] = (int32_t)done;
  }
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "writeEach", NAPI_AUTO_LENGTH, write_each, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "writeEach", fn) != napi_ok) return NULL;
  return exports;
}
