/* tests/nulldev/nulldev_abi.h - the part of libibverbs 44's private
 * provider ABI (IBVERBS_PRIVATE_34) that the null device uses: the layouts
 * of verbs_device_ops, verbs_device, verbs_sysfs_dev and
 * verbs_context_ops, and the four core functions a provider calls.
 *
 * Debian ships these only in rdma-core's source package (driver.h), which
 * needs a configured rdma-core tree to compile; so the layouts are restated
 * here from rdma-core v44.0 libibverbs/driver.h (dual GPL-2.0/BSD). The
 * member order is the ABI: change nothing but the names of the ops we do
 * not set (each a bare function pointer, same size). libibverbs refuses a
 * provider whose private ABI differs (the _34 in the registration symbol),
 * so a mismatch fails loudly at load, not silently.
 */
#ifndef RDMABENCH_TESTS_NULLDEV_NULLDEV_ABI_H
#define RDMABENCH_TESTS_NULLDEV_NULLDEV_ABI_H

#include <infiniband/verbs.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

typedef void (*nd_unused_op)(void);

struct nd_list_node {
	struct nd_list_node *next, *prev;
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

struct verbs_sysfs_dev {
	struct nd_list_node entry;
	void *provider_data;
	const struct verbs_match_ent *match;
	unsigned int flags;
	char sysfs_name[IBV_SYSFS_NAME_MAX];
	dev_t sysfs_cdev;
	char ibdev_name[IBV_SYSFS_NAME_MAX];
	char ibdev_path[IBV_SYSFS_PATH_MAX];
	char modalias[512];
	uint64_t node_guid;
	uint32_t driver_id;
	enum ibv_node_type node_type;
	int ibdev_idx;
	uint32_t num_ports;
	uint32_t abi_ver;
	struct timespec time_created;
};

struct verbs_device_ops {
	const char *name;
	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	const struct verbs_device_ops **static_providers;
	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);
	struct verbs_context *(*alloc_context)(struct ibv_device *device,
					       int cmd_fd, void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device,
						int cmd_fd);
	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

struct verbs_device {
	struct ibv_device device; /* first */
	const struct verbs_device_ops *ops;
	atomic_int refcount;
	struct nd_list_node entry;
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;
};

struct verbs_mr {
	struct ibv_mr ibv_mr;
	int mr_type;
	int access;
};

enum { ND_VERBS_QP_EX = 1 << 1 };

struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;
	void *xrcd;
};

/* sorted as driver.h sorts it; the ops we set carry their real types */
struct verbs_context_ops {
	nd_unused_op advise_mr, alloc_dm, alloc_mw, alloc_null_mr,
		alloc_parent_domain;
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
	nd_unused_op alloc_td, async_event, attach_counters_point_flow,
		attach_mcast, bind_mw, close_xrcd, cq_event, create_ah,
		create_counters;
	struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe,
				    struct ibv_comp_channel *channel,
				    int comp_vector);
	nd_unused_op create_cq_ex, create_flow, create_flow_action_esp;
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd,
				    struct ibv_qp_init_attr *attr);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *context,
				       struct ibv_qp_init_attr_ex *attr);
	nd_unused_op create_rwq_ind_table, create_srq, create_srq_ex,
		create_wq, dealloc_mw;
	int (*dealloc_pd)(struct ibv_pd *pd);
	nd_unused_op dealloc_td;
	int (*dereg_mr)(struct verbs_mr *vmr);
	nd_unused_op destroy_ah, destroy_counters;
	int (*destroy_cq)(struct ibv_cq *cq);
	nd_unused_op destroy_flow, destroy_flow_action;
	int (*destroy_qp)(struct ibv_qp *qp);
	nd_unused_op destroy_rwq_ind_table, destroy_srq, destroy_wq,
		detach_mcast;
	void (*free_context)(struct ibv_context *context);
	nd_unused_op free_dm, get_srq_num, import_dm, import_mr, import_pd,
		modify_cq, modify_flow_action_esp;
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			 int attr_mask);
	nd_unused_op modify_qp_rate_limit, modify_srq, modify_wq, open_qp,
		open_xrcd;
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr);
	nd_unused_op post_srq_ops, post_srq_recv;
	int (*query_device_ex)(struct ibv_context *context,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr,
			       size_t attr_size);
	nd_unused_op query_ece;
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *port_attr);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			int attr_mask, struct ibv_qp_init_attr *init_attr);
	nd_unused_op query_qp_data_in_order, query_rt_values, query_srq,
		read_counters, reg_dm_mr, reg_dmabuf_mr;
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
				 uint64_t hca_va, int access);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	nd_unused_op rereg_mr, resize_cq, set_ece, unimport_dm, unimport_mr,
		unimport_pd;
};

void verbs_register_driver_34(const struct verbs_device_ops *ops);
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    struct verbs_context *context_offset,
				    uint32_t driver_id);
void verbs_uninit_context(struct verbs_context *context);
void verbs_set_ops(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops);

#endif
