/* Binding command lists to oneDNN streams (zeil.h). */
#include "names.h"
#include "records_state.h"

int zeil_bind_list_to_stream(ze_command_list_handle_t list, uint64_t stream_id, const char *name)
{
    zeil_obj_t *obj = registry_find(list);
    if (!obj || obj->kind != ZEIL_KIND_COMMAND_LIST || !atomic_load(&obj->alive) || !stream_id)
        return -1;
    atomic_store(&obj->stream_id, stream_id);
    launch_cache_forget_all(); /* cached launches of the list name its stream */
    names_stream_bound(list, stream_id, name);
    return 0;
}

int zeil_unbind_stream(uint64_t stream_id)
{
    if (!stream_id)
        return -1;
    int found = 0;
    pthread_mutex_lock(&records_states_lock);
    for (zeil_list_state_t *s = records_states; s; s = s->next) {
        uint64_t expected = stream_id;
        if (s->obj && atomic_compare_exchange_strong(&s->obj->stream_id, &expected, 0))
            found = 1;
    }
    pthread_mutex_unlock(&records_states_lock);
    if (found)
        launch_cache_forget_all();
    return found ? 0 : -1;
}
