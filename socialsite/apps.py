from django.contrib.admin.apps import AdminConfig


class SocialSiteAdminConfig(AdminConfig):
    """Django's admin app, with the site that adds the Redis pages."""

    default_site = "socialsite.admin.SocialSiteAdmin"
