from django.urls import path

from . import appearance, filter_views, profile_views, views

app_name = "accounts"
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("settings/", views.settings, name="settings"),
    path("appearance/", appearance.appearance, name="appearance"),
    path("password/", views.change_password, name="change_password"),
    path("logout/everywhere/", views.logout_everywhere, name="logout_everywhere"),
    path("profile/", profile_views.update_profile, name="update_profile"),
    path("avatar/", profile_views.upload_avatar, name="upload_avatar"),
    path("avatar/remove/", profile_views.remove_avatar, name="remove_avatar"),
    path("welcome/dismiss/", profile_views.dismiss_first_run, name="dismiss_first_run"),
    path("delete/", views.delete_account, name="delete_account"),
    # Filters (apiprefs), shown in the settings page's privacy section.
    path("filters/", filter_views.create, name="create_filter"),
    path("filters/<int:filter_id>/", filter_views.update, name="update_filter"),
    path("filters/<int:filter_id>/delete/", filter_views.delete, name="delete_filter"),
]
